import {
  lazy,
  Suspense,
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
/**
 * A route's `lazy`: loads the screen once; `loaded` is its component once it is here; `frame`,
 * what the shell draws while it loads (instead of the layout's spinner).
 */
type LazyScreen = (() => Promise<{ Component: ComponentType }>) & {
  loaded?: ComponentType;
  frame?: ComponentType;
};

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
 * is tried again next time). With a `frame` (the shell's own component, core words only), the app
 * draws it at once on that route, its first screen included, and the screen replaces it: the page's
 * heading paints with the shell instead of after the screen's code (docs/performance.md).
 */
export function page(
  catalogs: CatalogName | readonly CatalogName[],
  load: () => Promise<ScreenModule>,
  { frame }: { frame?: ComponentType } = {},
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
  screen.frame = frame;
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
 * per route, created once. `framesOnly`: a screen with a frame is its frame alone, never loaded
 * (the build's first screens, src/app/prerender.tsx: what the app draws first on that route).
 */
export function withLazyScreens(
  routes: RouteObject[],
  { framesOnly = false }: { framesOnly?: boolean } = {},
): RouteObject[] {
  return routes.map((route) => {
    const { lazy: load, children, ...rest } = route;
    const resolved = { ...rest } as RouteObject;
    if (typeof load === 'function') {
      const Frame = (load as LazyScreen).frame;
      if (Frame && framesOnly) {
        resolved.element = <Frame />;
      } else {
        const Screen = lazyScreen(load as LazyScreen);
        const shown = (
          <ScreenShown>
            <Screen />
          </ScreenShown>
        );
        // Around ScreenShown: the first screen counts as shown when the screen is, not its frame.
        resolved.element = Frame ? <Suspense fallback={<Frame />}>{shown}</Suspense> : shown;
      }
    }
    if (children) resolved.children = withLazyScreens(children, { framesOnly });
    return resolved;
  });
}

/** Whether the screen at `pathname` has a frame the shell draws while it loads. */
export function hasFrame(routes: RouteObject[], pathname: string): boolean {
  return !!screenAt(routes, pathname)?.frame;
}

/**
 * Loads the screen of `pathname` (its chunk and catalog) right away, in parallel with the app's
 * own start: the app renders once it is here, screen and shell in one paint. The root redirects
 * to /home, so it loads /home. Never rejects: a screen that failed to load is tried again (and its
 * error shown) when it renders.
 */
export function preloadScreen(routes: RouteObject[], pathname: string): Promise<void> {
  return loadScreen(screenAt(routes, pathname));
}

/**
 * What the app's first render waits for at `pathname`: the screen (`preloadScreen`), or nothing
 * when the screen has a frame: its load starts in the next task and the frame is drawn meanwhile.
 */
export function firstScreenReady(routes: RouteObject[], pathname: string): Promise<void> {
  const screen = screenAt(routes, pathname);
  if (!screen?.frame) return loadScreen(screen);
  // In a task of its own: the import adds a preload link for each of the screen's chunks (the
  // wizard's 18 cost ≈ 30 ms of main thread at 4× CPU), which would lengthen the shell's own
  // evaluation past 100 ms, the first screen's longest task (docs/performance.md).
  setTimeout(() => void loadScreen(screen), 0);
  return Promise.resolve();
}

function loadScreen(screen: LazyScreen | undefined): Promise<void> {
  return screen
    ? screen().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}

function screenAt(routes: RouteObject[], pathname: string): LazyScreen | undefined {
  const matches = matchRoutes(routes, pathname === '/' ? '/home' : pathname);
  const load = matches?.[matches.length - 1]?.route.lazy;
  return typeof load === 'function' ? (load as LazyScreen) : undefined;
}
