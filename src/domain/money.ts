import type { Locale } from '@/domain/locale';

const numberLocales: Record<Locale, string> = {
  fr: 'fr-DZ',
  en: 'en-DZ',
  // Western digits in Arabic too: prices and references are read beside Latin text.
  ar: 'ar-DZ-u-nu-latn',
};

const formatters = new Map<Locale, Intl.NumberFormat>();

/** Formats whole Algerian dinars for the given UI language, e.g. "12 500 DZD". */
export function formatDzd(amount: number, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(numberLocales[locale], {
      style: 'currency',
      currency: 'DZD',
      currencyDisplay: 'code',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    formatters.set(locale, formatter);
  }
  return formatter.format(amount);
}
