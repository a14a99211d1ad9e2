import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { avatarColor, initials } from '@/features/auth/avatar';
import { UNAUTHENTICATED_ENTRY } from '@/features/auth/redirect';
import { loadFeatureCatalog } from '@/infra/i18n';
import { signOut, type SessionUser } from '@/infra/session';
import { cn } from '@/ui/cn';
import { DropdownMenu, MenuItem } from '@/ui/dropdown-menu';
import { CalendarIcon, ClockIcon, SignOutIcon, UserIcon } from '@/ui/icons';

await loadFeatureCatalog('auth');

export function UserAvatar({
  user,
  fallbackName,
  size = 36,
}: {
  user: SessionUser;
  fallbackName: string;
  size?: number;
}) {
  const [broken, setBroken] = useState(false);
  const name = user.userName || user.email || fallbackName;
  if (user.avatar && !broken) {
    return (
      <img
        src={user.avatar}
        alt=""
        width={size}
        height={size}
        onError={() => setBroken(true)}
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="user-avatar"
      dir="auto"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full text-sm font-semibold',
        avatarColor(name),
      )}
      // In rem: the initials follow the browser's text size, so does their circle.
      style={{ width: `${size / 16}rem`, height: `${size / 16}rem` }}
    >
      {initials(name)}
    </span>
  );
}

/** The header's avatar dropdown (docs/product.md §2): name, email, and 'Sign Out'. */
export default function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const displayName = user.userName || t`Anonyme`;
  const displayEmail = user.email || t`Aucune adresse e-mail`;

  return (
    <DropdownMenu
      label={t`Menu du compte`}
      panelClassName="w-64"
      triggerLabel={t`Compte de ${displayName}`}
      triggerTestId="user-menu-button"
      triggerClassName="inline-flex size-10 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-ring"
      triggerContent={<UserAvatar user={user} fallbackName={displayName} />}
    >
      {({ close }) => (
        <>
          <div className="flex items-center gap-3 px-3 py-2.5" data-testid="user-menu-identity">
            <UserAvatar user={user} fallbackName={displayName} size={40} />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold" dir="auto">
                {displayName}
              </p>
              <p className="truncate text-xs text-fg-muted" dir="auto">
                {displayEmail}
              </p>
            </div>
          </div>
          <hr className="my-1 border-line" />
          <MenuItem
            icon={<CalendarIcon size={18} />}
            onSelect={() => {
              close(false);
              navigate('/mybookings');
            }}
          >
            <Trans>Mes réservations</Trans>
          </MenuItem>
          <MenuItem
            icon={<ClockIcon size={18} />}
            onSelect={() => {
              close(false);
              navigate('/concepts/account/activity-log');
            }}
          >
            <Trans>Activité</Trans>
          </MenuItem>
          <MenuItem
            icon={<UserIcon size={18} />}
            onSelect={() => {
              close(false);
              navigate('/account');
            }}
          >
            <Trans>Mon compte</Trans>
          </MenuItem>
          <hr className="my-1 border-line" />
          <MenuItem
            icon={<SignOutIcon size={18} />}
            onSelect={() => {
              if (signingOut) return;
              setSigningOut(true);
              close(false);
              // Always ends signed out here, even when the server cannot be reached (docs/product.md §4).
              void signOut().finally(() => navigate(UNAUTHENTICATED_ENTRY, { replace: true }));
            }}
          >
            <Trans>Se déconnecter</Trans>
          </MenuItem>
        </>
      )}
    </DropdownMenu>
  );
}
