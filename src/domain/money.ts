import type { Locale } from '@/domain/locale';

/** The Intl locale of each UI language's amounts (also index.html's first cards: prerender.tsx). */
export const numberLocales: Record<Locale, string> = {
  fr: 'fr-DZ',
  en: 'en-DZ',
  // Western digits in Arabic too: prices and references are read beside Latin text.
  ar: 'ar-DZ-u-nu-latn',
};

/** Whole dinars, with the currency's code ("12 500 DZD"). */
export const DZD_FORMAT: Intl.NumberFormatOptions = {
  style: 'currency',
  currency: 'DZD',
  currencyDisplay: 'code',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
};

const formatters = new Map<Locale, Intl.NumberFormat>();

/** Formats whole Algerian dinars for the given UI language, e.g. "12 500 DZD". */
export function formatDzd(amount: number, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(numberLocales[locale], DZD_FORMAT);
    formatters.set(locale, formatter);
  }
  return formatter.format(amount);
}
