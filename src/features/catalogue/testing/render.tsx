import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';

import { db } from '@/sync/db';

/** Test helpers: the screens in a memory router with Lingui on (French, the source language). */

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
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const view = render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return { router, ...view };
}
