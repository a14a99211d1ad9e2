import {
  lazy,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

import { screenShown } from '@/infra/first-screen';
import { loadFeatureCatalog, type CatalogName } from '@/infra/i18n';

type ScreenModule = { default: ComponentType };
/** A route's `lazy`: loads the screen once; `loaded` is its component once it is here. */
type LazyScreen = (() => Promise<{ Component: ComponentType }>) & { loaded?: ComponentType };

let pending = 0;
const listeners = new Set<() => void>();

function setPending(delta: number) {
  pending += delta;
  for (const listener of listeners) listener();
}

/** Mounted with a screen (after its chunk loaded and React committed it). */
function ScreenShown({ children }: { children: ReactNode }) {
  useEffect(screenShown, []);
  return children;
}

/**
 * A lazy route (`lazy: page(…)` in routes.tsx): the screen's chunk and its catalogs (its
 * feature's, and `domain` for screens that show bookings), loaded in parallel, once (a failed load
 * is tried again next time).
 */
export function page(
  catalogs: CatalogName | readonly CatalogName[],
  load: () => Promise<ScreenModule>,
): LazyScreen {
  const names: readonly CatalogName[] = typeof catalogs === 'string' ? [catalogs] : catalogs;
  let loading: Promise<{ Component: ComponentType }> | null = null;
  const screen: LazyScreen = () => {
    loading ??= (async () => {
      setPending(1);
      try {
        const [module] = await Promise.all([load(), ...names.map(loadFeatureCatalog)]);
        screen.loaded = module.default;
        return { Component: module.default };
      } catch (error) {
        loading = null;
        throw error;
      } finally {
        setPending(-1);
      }
    })();
    return loading;
  };
  return screen;
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
 * A route's screen: rendered at once when its code is already here (the first screen, loaded
 * before the app's first render, or a screen visited before), else through React.lazy and the
 * layout's Suspense fallback. Rendering a ready screen directly also spares the first screen
 * React's 300 ms throttle on revealing a boundary that showed its fallback.
 */
function lazyScreen(load: LazyScreen): ComponentType {
  const Lazy = lazy(async () => ({ default: (await load()).Component }));
  return function Screen() {
    // Chosen once per mount: switching component types would remount the page.
    const [Ready] = useState(() => load.loaded);
    return Ready ? <Ready /> : <Lazy />;
  };
}

/**
 * Turns the table's `lazy: page(…)` entries into elements for `useRoutes`: one screen component
 * per route, created once.
 */
export function withLazyScreens(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy: load, children, ...rest } = route;
    const resolved = { ...rest } as RouteObject;
    if (typeof load === 'function') {
      const Screen = lazyScreen(load as LazyScreen);
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
 * Loads the screen of `pathname` (its chunk and catalog) right away, in parallel with the app's
 * own start: the app renders once it is here, screen and shell in one paint. The root redirects
 * to /home, so it loads /home. Never rejects: a screen that failed to load is tried again (and its
 * error shown) when it renders.
 */
export async function preloadScreen(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname === '/' ? '/home' : pathname);
  const load = matches?.[matches.length - 1]?.route.lazy;
  if (typeof load === 'function') await (load as LazyScreen)().catch(() => undefined);
}
