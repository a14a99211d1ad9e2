import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';

import { ContactButton } from '@/app/contact-button';
import { RouteErrorBoundary } from '@/app/error-boundary';
import { Footer } from '@/app/footer';
import { Header } from '@/app/header';
import { PageSpinner } from '@/ui/spinner';

/** Page padding of the top-bar layout (docs/product.md §9). */
export const PAGE_PADDING = 'px-4 max-[20rem]:px-2 sm:px-6 md:px-8';

/**
 * Pages whose own actions sit where the floating contact button would cover them on a phone (the
 * booking wizard and a car's booking form, a booking's confirmation and the guest lookup with
 * their sync panel): there the button is docked at the end of the page instead (the layout
 * audit, tests/e2e/layout-audit.spec.ts, hit-tests every control).
 */
const DOCKED_CONTACT = /^\/(cars\/[^/]+|booking-success|guest-booking)(\/|$)/;

/** The agency's own screens: the travellers' contact button has nothing to offer there. */
const STAFF = /^\/staff(\/|$)/;

/** The 'topBarClassic' layout of the public and signed-in pages. */
export function TopBarLayout() {
  const { pathname } = useLocation();
  const docked = DOCKED_CONTACT.test(pathname);
  const contact = !STAFF.test(pathname);
  return (
    <div className="flex min-h-dvh flex-col" data-layout="topBarClassic">
      <Header />
      <main
        id="main"
        tabIndex={-1}
        // At least a screen tall: the footer starts below the fold, so pages that fill in as
        // their data arrives never push it around (no layout shift).
        className={`mx-auto min-h-[calc(100dvh-4rem)] w-full max-w-7xl flex-1 ${PAGE_PADDING} pt-6 ${docked || !contact ? 'pb-6' : 'pb-24'} outline-none`}
      >
        <RouteErrorBoundary>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      {contact && docked && (
        <div className={`mx-auto flex w-full max-w-7xl justify-end ${PAGE_PADDING} pb-6`}>
          <ContactButton docked />
        </div>
      )}
      <Footer />
      {contact && !docked && <ContactButton />}
    </div>
  );
}
