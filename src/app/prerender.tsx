/**
 * Build step (scripts/first-screen.ts, run by vite.config.ts): the first screen's markup in each
 * language, rendered with the app's own components, so index.html paints it before the app's
 * code has arrived (docs/performance.md, "The first screen in the HTML").
 *
 * Rendered in Node, without a browser: the route's screen and the language's catalogs are loaded
 * first, then React renders the same tree as src/app/app.tsx at that URL, without running
 * effects (the home page's best-rated cars show their skeleton, as on the app's first render). A
 * screen with a frame is not loaded: the app draws its frame first, and so does the copy.
 */
import { I18nProvider } from '@lingui/react';
import { renderToString } from 'react-dom/server';
import { StaticRouter, useRoutes } from 'react-router-dom';

import { routes } from '@/app/routes';
import { hasFrame, preloadScreen, withLazyScreens } from '@/app/screens';
import type { Locale } from '@/domain/locale';
import { formatDzd, numberLocales } from '@/domain/money';
import type { Car } from '@/domain/rows';
import { i18n, loadFeatureCatalog, type CatalogName } from '@/infra/i18n';
import { bodyMessages } from '@/ui/car-codes';
import { fuelMessages, transmissionMessages } from '@/ui/car-identity';

import { CarCard } from '@/features/catalogue/car-card';
import {
  CARD_VARIANTS,
  type CardTemplates,
  type CardVariant,
} from '@/features/catalogue/first-cards';
import { carLabels } from '@/features/catalogue/labels';

// A screen with a frame (the booking wizard) is written as its frame: the app's own first render
// there (src/app/screens.tsx, `firstScreenReady`).
const appRoutes = withLazyScreens(routes, { framesOnly: true });

function AppRoutes() {
  return useRoutes(appRoutes);
}

async function activate(locale: Locale, catalogs: readonly CatalogName[]) {
  i18n.load(locale, {});
  i18n.activate(locale);
  for (const name of ['core', ...catalogs] as const) await loadFeatureCatalog(name);
}

/** The markup the app renders first at `path` in `locale` (its catalogs: `catalogs`). */
export async function prerender(
  path: string,
  locale: Locale,
  catalogs: readonly CatalogName[] = ['catalogue'],
): Promise<string> {
  await activate(locale, catalogs);
  if (!hasFrame(routes, path)) await preloadScreen(routes, path);
  return renderToString(
    <I18nProvider i18n={i18n}>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </I18nProvider>,
  );
}

/** Values whose formatted text the tokens replace: unique in a card's markup. */
const SAMPLE = { price: 9_876_543, rating: 4.3, percent: 90, count: 8_642 } as const;

export type { CardTemplates };

/** The car card's templates in `locale`, rendered by the app's own CarCard (docs/performance.md). */
export async function prerenderCards(locale: Locale): Promise<CardTemplates> {
  await activate(locale, ['catalogue']);
  const labels = {
    ...carLabels(i18n),
    body: () => '__body__',
    fuel: () => '__fuel__',
    transmission: () => '__transmission__',
  };
  const shownRating = i18n.number(SAMPLE.rating, { maximumFractionDigits: 1 });
  const variants = {} as Record<CardVariant, string>;
  for (const variant of CARD_VARIANTS) {
    const car = {
      id: '__id__',
      slug: '__slug__',
      name: '__name__',
      year: '__year__',
      passengers: '__passengers__',
      daily_rate_dzd: SAMPLE.price,
      images: variant.endsWith('p') ? ['__image__'] : [],
      rating_avg: variant.startsWith('r') ? SAMPLE.rating : null,
      rating_count: variant.startsWith('r') ? SAMPLE.count : 0,
    } as unknown as Car;
    const html = renderToString(
      <I18nProvider i18n={i18n}>
        <StaticRouter location="/cars">
          <CarCard car={car} labels={labels} search="" />
        </StaticRouter>
      </I18nProvider>,
    )
      .replaceAll(formatDzd(SAMPLE.price, locale), '__price__')
      .replaceAll(shownRating, '__rating__')
      .replaceAll(` ${SAMPLE.percent}%`, ' __percent__%')
      .replaceAll(String(SAMPLE.count), '__count__');
    variants[variant] = html.replace(/^<li /, `<li data-card-variant="${variant}" `);
  }
  const real = carLabels(i18n);
  const table = (codes: Record<string, unknown>, label: (code: string) => string) =>
    Object.fromEntries(Object.keys(codes).map((code) => [code, label(code)]));
  return {
    variants,
    words: {
      body: table(bodyMessages, real.body),
      fuel: table(fuelMessages, real.fuel),
      transmission: table(transmissionMessages, real.transmission),
    },
    priceLocale: numberLocales[locale],
    ratingLocale: locale,
  };
}
