import { i18n, type Messages } from '@lingui/core';

export const locales = ['fr', 'en', 'ar'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'fr';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/**
 * Catalogs are split by feature (lingui.config.ts): `core` for the shell, and one per feature,
 * loaded with the feature's route. Every catalog that was loaded once is reloaded on a locale
 * switch, so the whole screen changes language at once.
 */
type CatalogName =
  'core' | 'auth' | 'booking' | 'bookings' | 'catalogue' | 'content' | 'notifications' | 'staff';

const loaders = import.meta.glob<{ messages: Messages }>('../locales/*/*.po');
const loadedCatalogs = new Set<CatalogName>(['core']);

async function loadCatalog(locale: Locale, name: CatalogName): Promise<Messages> {
  const load = loaders[`../locales/${locale}/${name}.po`];
  if (!load) return {};
  return (await load()).messages;
}

/** Makes a feature's messages available in the current locale (and in later ones). */
export async function loadFeatureCatalog(name: CatalogName): Promise<void> {
  loadedCatalogs.add(name);
  const locale = (i18n.locale || defaultLocale) as Locale;
  i18n.load(locale, await loadCatalog(locale, name));
}

/** Loads every catalog in use for `locale`, activates it and sets `lang`/`dir` on <html>. */
export async function activateLocale(locale: Locale): Promise<void> {
  const catalogs = await Promise.all([...loadedCatalogs].map((name) => loadCatalog(locale, name)));
  i18n.load(locale, Object.assign({}, ...catalogs));
  i18n.activate(locale);
  document.documentElement.lang = locale;
  document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
}

export { i18n };
