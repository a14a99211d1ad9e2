/**
 * The car lists a first visit shows, and how many cards each draws first: one home for the app's
 * pages (cars-page.tsx, home-live.tsx) and for index.html's first cards (scripts/first-cards.ts),
 * which must draw exactly what the app then draws (docs/performance.md, "First cards in the HTML").
 * Imported by the build: no imports, no browser globals.
 */

/** Cards rendered at first on /cars, and added by "show more": the DOM stays small with 5,000 cars. */
export const PAGE_SIZE = 12;

/** The first cards of /cars load their picture eagerly (above the fold). */
export const EAGER_CARDS = 3;

/** The home page's best-rated cars. */
export const FEATURED_CARS = 6;

/** A list index.html can draw: its name (`data-first-cards`), its cards, its eager pictures. */
export type FirstCardList = { list: 'cars' | 'featured'; limit: number; eager: number };

/** By first-screen page (scripts/first-screen.ts, FIRST_SCREENS). */
export const FIRST_CARD_LISTS: Record<string, FirstCardList> = {
  home: { list: 'featured', limit: FEATURED_CARS, eager: 0 },
  cars: { list: 'cars', limit: PAGE_SIZE, eager: EAGER_CARDS },
};

/**
 * A car card's variants, keyed: rated (`r`) or new (`n`), then with a photo (`p`) or without
 * (`x`). Index.html's first cards copy one per car.
 */
export const CARD_VARIANTS = ['rp', 'rx', 'np', 'nx'] as const;
export type CardVariant = (typeof CARD_VARIANTS)[number];

/**
 * What a first card needs in one language (src/app/prerender.tsx, prerenderCards): the card's
 * variants as the app's CarCard renders them, each value a `__name__` token, and the words and
 * number formats the tokens are filled with.
 */
export type CardTemplates = {
  variants: Record<CardVariant, string>;
  words: {
    body: Record<string, string>;
    fuel: Record<string, string>;
    transmission: Record<string, string>;
  };
  /** Intl locales of prices (formatDzd) and of ratings (Lingui's `i18n.number`, Stars). */
  priceLocale: string;
  ratingLocale: string;
};
