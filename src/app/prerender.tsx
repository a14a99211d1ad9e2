/**
 * Build step (scripts/first-screen.ts, run by vite.config.ts): the first screen's markup in each
 * language, rendered with the app's own components, so index.html paints it before the app's
 * code has arrived (docs/performance.md, "The first screen in the HTML").
 *
 * Rendered in Node, without a browser: the route's screen and the language's catalogs are loaded
 * first, then React renders the same tree as src/app/app.tsx at that URL, without running
 * effects (the home page's best-rated cars show their skeleton, as on the app's first render).
 */
import { I18nProvider } from '@lingui/react';
import { renderToString } from 'react-dom/server';
import { StaticRouter, useRoutes } from 'react-router-dom';

import { routes } from '@/app/routes';
import { preloadScreen, withLazyScreens } from '@/app/screens';
import type { Locale } from '@/domain/locale';
import { i18n, loadFeatureCatalog, type CatalogName } from '@/infra/i18n';

const appRoutes = withLazyScreens(routes);

function AppRoutes() {
  return useRoutes(appRoutes);
}

/** The markup the app renders first at `path` in `locale` (its catalogs: `catalogs`). */
export async function prerender(
  path: string,
  locale: Locale,
  catalogs: readonly CatalogName[] = ['catalogue'],
): Promise<string> {
  i18n.load(locale, {});
  i18n.activate(locale);
  for (const name of ['core', ...catalogs] as const) await loadFeatureCatalog(name);
  await preloadScreen(routes, path);
  return renderToString(
    <I18nProvider i18n={i18n}>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </I18nProvider>,
  );
}
