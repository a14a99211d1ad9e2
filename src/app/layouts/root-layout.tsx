import { Trans } from '@lingui/react/macro';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';

import { useScreenLoading } from '@/app/screens';
import { ToastViewport } from '@/app/toast-viewport';

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

const SCROLL_KEY = 'kiraa-scroll';

function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Scroll like a multi-page site: a new page starts at the top (or at its #fragment), Back and
 * Forward return to where the reader was (kept per history entry, also across reloads).
 */
function useScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    history.scrollRestoration = 'manual';
    const key = location.key;
    const save = () => {
      const positions = savedPositions();
      positions[key] = Math.round(window.scrollY);
      try {
        sessionStorage.setItem(SCROLL_KEY, JSON.stringify(positions));
      } catch {
        // Storage full or blocked: no restoration, nothing breaks.
      }
    };
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('pagehide', save);
      save();
    };
  }, [location.key]);

  useLayoutEffect(() => {
    if (navigationType === 'POP') {
      const y = savedPositions()[location.key];
      if (y !== undefined) window.scrollTo(0, y);
      return;
    }
    if (location.hash) {
      document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
      return;
    }
    window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);
}

/** A thin bar at the top while a lazy page loads. */
function RouteProgress() {
  const loading = useScreenLoading();
  if (!loading) return null;
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
  useScrollRestoration();
  return (
    <>
      <a
        href="#main"
        className="fixed start-2 top-2 z-[80] translate-y-[-200%] rounded-lg bg-primary px-4 py-2 font-medium text-on-primary shadow focus:translate-y-0"
      >
        <Trans>Aller au contenu principal</Trans>
      </a>
      <RouteProgress />
      <Outlet />
      <ToastViewport />
    </>
  );
}
