import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router-dom';

import { ToastViewport } from '@/ui/toast-viewport';

/** After a client-side navigation, focus moves to the new page's main region (screen readers). */
function useFocusMainOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [pathname]);
}

/** A thin bar at the top while a lazy page loads. */
function RouteProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      aria-hidden="true"
      data-testid="route-progress"
      className="fixed inset-x-0 top-0 z-[70] h-1 overflow-hidden bg-primary-soft"
    >
      <div className="kiraa-progress h-full w-1/3 bg-primary" />
    </div>
  );
}

/** Shared by every layout: skip link, scroll restoration, route focus, toasts. */
export function RootLayout() {
  useFocusMainOnNavigation();
  return (
    <>
      <a
        href="#main"
        className="fixed start-2 top-2 z-[80] -translate-y-20 rounded-lg bg-primary px-4 py-2 font-medium text-on-primary shadow focus:translate-y-0"
      >
        <Trans>Aller au contenu principal</Trans>
      </a>
      <RouteProgress />
      <ScrollRestoration />
      <Outlet />
      <ToastViewport />
    </>
  );
}
