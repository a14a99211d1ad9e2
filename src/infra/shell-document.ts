import { defaultLocale, isLocale } from '../domain/locale.ts';

/**
 * The pages whose first screen the build writes into the app's documents (scripts/first-screen.ts,
 * docs/performance.md): their path, the URLs that show them (`pattern`; not when the query string
 * matches `unless`), the feature catalogs their first screen needs beside the shell's, and
 * whether index.html draws their first car cards (scripts/first-cards.ts).
 */
export const FIRST_SCREEN_PAGES = [
  { name: 'home', path: '/home', pattern: '^/(home/?)?$', catalogs: ['catalogue'], cards: true },
  { name: 'cars', path: '/cars', pattern: '^/cars/?$', catalogs: ['catalogue'], cards: true },
  // The wizard's frame (src/app/frames.tsx): its heading. Correcting a refused booking (`?edit=`)
  // has another heading: that page keeps the placeholder.
  {
    name: 'book',
    path: '/cars/book',
    pattern: '^/cars/book/?$',
    unless: '[?&]edit=',
    catalogs: [],
    cards: false,
  },
] as const;

/** The URLs of `pages`, as one pattern (none when there is no page). */
export function pagesRoute(pages: ReadonlyArray<{ pattern: string }>): RegExp {
  return new RegExp(pages.map((page) => page.pattern).join('|') || '$^');
}

/** The first-screen page at `pathname`, if it is one. */
export function firstScreenPage(pathname: string): string | null {
  return FIRST_SCREEN_PAGES.find((page) => new RegExp(page.pattern).test(pathname))?.name ?? null;
}

/** The document of the pages without a first screen in the HTML: #root's placeholder only. */
export const OTHER_PAGES_DOCUMENT = 'index.shell.html';

/**
 * The document the service worker answers a navigation with (src/sw.ts). On the first-screen
 * pages, the one in the device's language: index.html holds their copies in the default language
 * (what a static host serves a first visit, which has no stored language yet), `index.en.html`
 * and `index.ar.html` in the others. The other pages get OTHER_PAGES_DOCUMENT, without any copy.
 * One document per page and language would save a slow phone the other page's copy (≈ 0.1 s at
 * 4× CPU) but add ≈ 55 KB gzip to what the worker downloads at each update: not worth it on an
 * airport's network. The build writes them all (scripts/first-screen.ts).
 */
export function shellDocument(locale: unknown, pathname: string): string {
  if (!firstScreenPage(pathname)) return OTHER_PAGES_DOCUMENT;
  return isLocale(locale) && locale !== defaultLocale ? `index.${locale}.html` : 'index.html';
}
