import type { Localized } from '@/domain/rows';

/**
 * The app's languages, and names that the data carries in all three (`{fr, en, ar}` columns).
 * French is the source and the fallback; Arabic is written right to left.
 */
export const locales = ['fr', 'en', 'ar'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'fr';

export type Direction = 'ltr' | 'rtl';

/** Each language named in itself: the switch shows these, never translated. */
export const localeNames: Record<Locale, string> = { fr: 'Français', en: 'English', ar: 'العربية' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

export function localeDirection(locale: Locale): Direction {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/** A name in the UI language, French when the translation is missing or empty. */
export function localized(name: Partial<Localized> | null | undefined, locale: Locale): string {
  if (!name) return '';
  return name[locale] || name.fr || '';
}
