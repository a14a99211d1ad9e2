import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';

import { signInPath } from '@/app/guards';
import { SignedInSlots } from '@/app/header-slots';
import { InstallButton } from '@/app/install-button';
import { LanguageSwitch } from '@/app/language-switch';
import { NavDrawer } from '@/app/nav-drawer';
import { navigation, visibleNavItems } from '@/app/navigation';
import { useSessionGuess } from '@/infra/session-view';
import { ThemeSwitch } from '@/app/theme-switch';
import { buttonClass, IconButton } from '@/ui/button';
import { cn } from '@/ui/cn';
import { MenuIcon, SignInIcon } from '@/ui/icons';
import { Logo } from '@/ui/logo';

/** The top bar (64 px): menu, logo, navigation on wide screens, and the controls. */
export function Header() {
  const { t, i18n } = useLingui();
  const [menuOpen, setMenuOpen] = useState(false);
  const session = useSessionGuess();
  const location = useLocation();
  const items = visibleNavItems(navigation, session).filter((item) => item.path !== '#');
  const onAuthPage = /^\/(sign-in|sign-up|forgot-password|reset-password)/.test(location.pathname);

  return (
    // Text much larger than the screen is wide (the browser's text size at 200 % on a phone: the
    // screen is under 20rem): the controls wrap onto a second row and the bar scrolls away with
    // the page instead of covering a third of it (docs/ui.md, "Large text").
    <header className="sticky top-0 z-30 border-b border-line bg-surface/95 backdrop-blur max-[20rem]:relative max-[20rem]:[backdrop-filter:none] supports-[backdrop-filter]:bg-surface/85">
      <div className="mx-auto flex min-h-16 max-w-7xl flex-wrap items-center gap-1 px-4 max-[20rem]:px-2 sm:gap-2 sm:px-6 md:px-8">
        <IconButton
          label={t`Ouvrir le menu`}
          icon={<MenuIcon />}
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          data-testid="menu-button"
          className="-ms-2 lg:hidden"
          onClick={() => setMenuOpen(true)}
        />
        <Link
          to="/home"
          aria-label={t`Kiraa, accueil`}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring"
        >
          {/* Below 360 px the signed-in controls need the room: the mark alone (the link is named). */}
          <Logo nameClassName="max-[22.5rem]:hidden" />
        </Link>
        <nav aria-label={t`Navigation principale`} className="ms-6 hidden lg:block">
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.key}>
                <NavLink
                  to={item.path}
                  className={({ isActive }) =>
                    cn(
                      'rounded-lg px-3 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
                      isActive ? 'text-primary-text' : 'text-fg',
                    )
                  }
                >
                  {i18n._(item.title)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ms-auto flex flex-wrap items-center justify-end gap-0.5 sm:gap-1">
          <InstallButton />
          <LanguageSwitch />
          <ThemeSwitch />
          {session.status === 'signedIn' && session.user ? (
            <SignedInSlots user={session.user} />
          ) : session.status === 'signedOut' && !onAuthPage ? (
            <Link
              to={signInPath(location.pathname + location.search)}
              data-testid="sign-in-link"
              className={buttonClass({ size: 'sm', className: 'ms-1 shrink-0' })}
            >
              <SignInIcon size={18} />
              <span className="hidden xs:inline">
                <Trans>Se connecter</Trans>
              </span>
              <span className="sr-only xs:hidden">
                <Trans>Se connecter</Trans>
              </span>
            </Link>
          ) : null}
        </div>
      </div>
      <NavDrawer open={menuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
}
