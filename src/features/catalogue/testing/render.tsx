import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import {
  UNSAFE_createMemoryHistory as createMemoryHistory,
  unstable_HistoryRouter as HistoryRouter,
  useRoutes,
  type RouteObject,
  type To,
} from 'react-router-dom';

import { db } from '@/infra/db';

/**
 * Test helpers: the screens with Lingui on (French, the source language), routed the way the app
 * routes them (src/app/app.tsx: declarative routes, lazy screens through React.lazy, navigations
 * in a transition), over a memory history.
 */

export async function resetCatalogue(): Promise<void> {
  await Promise.all([db.cars, db.locations, db.busy, db.meta].map((table) => table.clear()));
}

export function activateFrench(): void {
  i18n.load('fr', {});
  i18n.activate('fr');
}

/**
 * Renders `element` at `path` (with `url`), then `more` routes, and a probe route that shows
 * where other links lead.
 */
export function renderRoute(
  path: string,
  url: string,
  element: ReactElement,
  more: RouteObject[] = [],
) {
  const routes: RouteObject[] = [
    { path, element },
    ...more,
    { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
  ];
  const history = createMemoryHistory({ initialEntries: [url], v5Compat: true });
  // Like src/app/screens.tsx's withLazyScreens: a route's `lazy` becomes a React.lazy element.
  const lazyRoutes = routes.map(({ lazy: load, ...route }): RouteObject => {
    if (typeof load !== 'function') return route as RouteObject;
    const Screen = lazy(async () => ({
      default: ((await load()) as { Component: ComponentType }).Component,
    }));
    return { ...route, element: <Screen /> } as RouteObject;
  });
  function Routes() {
    return useRoutes(lazyRoutes);
  }
  const view = render(
    <I18nProvider i18n={i18n}>
      <HistoryRouter history={history}>
        <Suspense fallback={null}>
          <Routes />
        </Suspense>
      </HistoryRouter>
    </I18nProvider>,
  );
  /** Where the app is, and a way to go elsewhere, like a data router's. */
  const router = {
    state: {
      get location() {
        return history.location;
      },
    },
    navigate: async (to: To | number) => {
      if (typeof to === 'number') history.go(to);
      else history.push(to);
    },
  };
  return { router, ...view };
}
