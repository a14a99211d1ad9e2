import { lazy, useEffect, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

import { loadFeatureCatalog, type CatalogName } from '@/lib/i18n';

type ScreenModule = { default: ComponentType };
type LazyScreen = () => Promise<{ Component: ComponentType }>;

let pending = 0;
const listeners = new Set<() => void>();

function setPending(delta: number) {
  pending += delta;
  for (const listener of listeners) listener();
}

let screensShown = 0;
const firstScreenWaiters: Array<() => void> = [];

/** Mounted with a screen (after its chunk loaded and React committed it): wakes the waiters. */
function ScreenShown({ children }: { children: ReactNode }) {
  useEffect(() => {
    screensShown += 1;
    for (const wake of firstScreenWaiters.splice(0)) wake();
  }, []);
  return children;
}

/** A lazy route (`lazy: page(…)` in routes.tsx): the screen's chunk and its feature's catalog, loaded in parallel. */
export function page(catalog: CatalogName, load: () => Promise<ScreenModule>): LazyScreen {
  return async () => {
    setPending(1);
    try {
      const [module] = await Promise.all([load(), loadFeatureCatalog(catalog)]);
      return { Component: module.default };
    } finally {
      setPending(-1);
    }
  };
}

/**
 * Resolves once the first screen is on the page and the browser has had a frame to paint it (or
 * after `timeoutMs`, e.g. in a background tab): background work (sync, service worker) starts
 * after it, so it never competes with the first screen.
 */
export function afterFirstScreen(timeoutMs = 4000): Promise<void> {
  return new Promise((resolve) => {
    const painted = () => requestAnimationFrame(() => resolve());
    if (screensShown > 0) painted();
    else firstScreenWaiters.push(painted);
    setTimeout(resolve, timeoutMs);
  });
}

/** True while a screen's chunk or catalog is loading (the progress bar). */
export function useScreenLoading(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending > 0,
    () => false,
  );
}

/**
 * Turns the table's `lazy: page(…)` entries into elements for `useRoutes`: one React.lazy
 * component per route, created once.
 */
export function withLazyScreens(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy: load, children, ...rest } = route;
    const resolved = { ...rest } as RouteObject;
    if (typeof load === 'function') {
      const Screen = lazy(async () => ({ default: (await (load as LazyScreen)()).Component }));
      resolved.element = (
        <ScreenShown>
          <Screen />
        </ScreenShown>
      );
    }
    if (children) resolved.children = withLazyScreens(children);
    return resolved;
  });
}

/**
 * Starts loading the screen of `pathname` (its chunk and catalog) right away, in parallel with
 * the app's own start, instead of after the first render: one round trip less before the first
 * screen. The root redirects to /home, so it preloads /home.
 */
export function preloadScreen(routes: RouteObject[], pathname: string): void {
  const matches = matchRoutes(routes, pathname === '/' ? '/home' : pathname);
  const load = matches?.[matches.length - 1]?.route.lazy;
  if (typeof load === 'function') void (load as LazyScreen)().catch(() => undefined);
}
