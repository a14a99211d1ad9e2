import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';

import { ContactButton } from '@/app/contact-button';
import { RouteErrorBoundary } from '@/app/error-boundary';
import { Footer } from '@/app/footer';
import { Header } from '@/app/header';
import { PageSpinner } from '@/ui/spinner';

/** Page padding of the top-bar layout (SPEC §9). */
export const PAGE_PADDING = 'px-4 sm:px-6 md:px-8';

/** The 'topBarClassic' layout of the public and signed-in pages. */
export function TopBarLayout() {
  return (
    <div className="flex min-h-dvh flex-col" data-layout="topBarClassic">
      <Header />
      <main
        id="main"
        tabIndex={-1}
        // At least a screen tall: the footer starts below the fold, so pages that fill in as
        // their data arrives never push it around (no layout shift).
        className={`mx-auto min-h-[calc(100dvh-4rem)] w-full max-w-7xl flex-1 ${PAGE_PADDING} pt-6 pb-24 outline-none`}
      >
        <RouteErrorBoundary>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <ContactButton />
    </div>
  );
}
