import { defaultLocale, isLocale } from '../domain/locale.ts';

/**
 * The app's document for a language (docs/performance.md, "One document per language"):
 * `index.html` holds the first screen's copies in the default language (a first visit has no
 * stored language), `index.<locale>.html` in another. The build writes them
 * (scripts/first-screen.ts); the service worker answers a navigation with the device's
 * (src/sw.ts).
 */
export function shellDocument(locale: unknown): string {
  return isLocale(locale) && locale !== defaultLocale ? `index.${locale}.html` : 'index.html';
}
