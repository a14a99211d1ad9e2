import { Trans, useLingui } from '@lingui/react/macro';
import { NavLink } from 'react-router-dom';

import { navigation, visibleNavItems } from '@/app/navigation';
import { useSessionGuess } from '@/infra/session-view';
import { cn } from '@/ui/cn';
import { Drawer, MENU_DRAWER_WIDTH } from '@/ui/drawer';

const itemClassName =
  'flex items-center gap-3 rounded-lg px-3 py-3 text-base font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring';

/** The main navigation drawer: 330 px, from the left (from the right in Arabic). */
export function NavDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const session = useSessionGuess();
  const items = visibleNavItems(navigation, session);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t`Menu`}
      side="start"
      width={MENU_DRAWER_WIDTH}
      testId="nav-drawer"
    >
      <nav aria-label={t`Navigation principale`}>
        <ul className="flex flex-col gap-1">
          {items.map((item) => {
            const Icon = item.icon;
            const title = i18n._(item.title);
            if (item.path === '#') {
              // The blog is not written yet (docs/product.md §2: a placeholder): say so instead of
              // pretending to navigate.
              return (
                <li key={item.key}>
                  <span
                    aria-disabled="true"
                    className={cn(itemClassName, 'text-fg-muted hover:bg-transparent')}
                  >
                    <Icon />
                    <span className="flex-1">{title}</span>
                    <span className="rounded-full bg-muted px-2 py-0.5 text-xs">
                      <Trans>Bientôt</Trans>
                    </span>
                  </span>
                </li>
              );
            }
            return (
              <li key={item.key}>
                <NavLink
                  to={item.path}
                  onClick={onClose}
                  className={({ isActive }) =>
                    cn(itemClassName, isActive ? 'bg-primary-soft text-primary-text' : 'text-fg')
                  }
                >
                  <Icon />
                  <span>{title}</span>
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
    </Drawer>
  );
}
