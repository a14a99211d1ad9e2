import { Trans } from '@lingui/react/macro';
import { Suspense, useEffect } from 'react';
import { Link, Outlet } from 'react-router-dom';

import { RouteErrorBoundary } from '@/app/error-boundary';
import { LanguageSwitch } from '@/app/language-switch';
import { PAGE_PADDING } from '@/app/layouts/top-bar-layout';
import { loadSessionModule } from '@/infra/session-view';
import { ThemeSwitch } from '@/app/theme-switch';
import { CheckIcon } from '@/ui/icons';
import { Logo } from '@/ui/logo';
import { PageSpinner } from '@/ui/spinner';

/** The 'side' layout of the authentication pages: the form, and the brand panel on wide screens. */
export function SideLayout() {
  // Signing in or up happens here: follow the session from now on (header, guards).
  useEffect(() => {
    void loadSessionModule();
  }, []);
  return (
    <div className="grid min-h-dvh lg:grid-cols-2" data-layout="side">
      <div className="flex flex-col">
        <header
          className={`flex min-h-16 flex-wrap items-center justify-between gap-1 ${PAGE_PADDING}`}
        >
          <Link
            to="/home"
            className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring"
          >
            <Logo />
          </Link>
          <div className="flex items-center gap-1">
            <LanguageSwitch />
            <ThemeSwitch />
          </div>
        </header>
        <main
          id="main"
          tabIndex={-1}
          className={`flex flex-1 items-start justify-center ${PAGE_PADDING} py-8 outline-none sm:items-center`}
        >
          <div className="w-full max-w-md">
            <RouteErrorBoundary>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </RouteErrorBoundary>
          </div>
        </main>
      </div>
      <aside className="relative hidden flex-col justify-end overflow-hidden bg-gradient-to-br from-blue-800 via-blue-700 to-blue-900 p-12 text-white lg:flex">
        <p className="max-w-md text-3xl leading-tight font-bold">
          <Trans>Louez une voiture partout en Algérie, même hors ligne.</Trans>
        </p>
        <ul className="mt-8 flex flex-col gap-3 text-lg">
          <li className="flex items-center gap-3">
            <CheckIcon className="text-amber-300" />
            <Trans>Livraison 24h/24 et 7j/7</Trans>
          </li>
          <li className="flex items-center gap-3">
            <CheckIcon className="text-amber-300" />
            <Trans>Prise en charge à l’aéroport</Trans>
          </li>
          <li className="flex items-center gap-3">
            <CheckIcon className="text-amber-300" />
            <Trans>Chauffeur en option</Trans>
          </li>
          <li className="flex items-center gap-3">
            <CheckIcon className="text-amber-300" />
            <Trans>Meilleur prix garanti</Trans>
          </li>
        </ul>
      </aside>
    </div>
  );
}
