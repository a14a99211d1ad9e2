import { i18n, type Messages } from '@lingui/core';

import { defaultLocale, isLocale, localeDirection, type Locale } from '@/domain/locale';
import { updateTheme } from '@/infra/theme';

/** The chosen language, in localStorage (index.html reads it before the first paint). */
export const LOCALE_STORAGE_KEY = 'locale';

/** The language to start in: the stored choice, else French (the product's default). */
export function initialLocale(): Locale {
  try {
    const stored = localStorage.getItem(LOCALE_STORAGE_KEY);
    if (isLocale(stored)) return stored;
  } catch {
    // Storage unavailable: fall through to the default.
  }
  return defaultLocale;
}

/**
 * Catalogs are split by feature (lingui.config.ts): `core` for the shell, and one per feature,
 * loaded with the feature's route. Every catalog that was loaded once is reloaded on a locale
 * switch, so the whole screen changes language at once.
 */
export type CatalogName =
  | 'core'
  | 'domain'
  | 'auth'
  | 'account'
  | 'booking'
  | 'guest-account'
  | 'bookings'
  | 'catalogue'
  | 'content'
  | 'notifications'
  | 'staff';

const loaders = import.meta.glob<{ messages: Messages }>('../locales/*/*.po');
const loadedCatalogs = new Set<CatalogName>(['core']);

async function loadCatalog(locale: Locale, name: CatalogName): Promise<Messages> {
  const load = loaders[`../locales/${locale}/${name}.po`];
  if (!load) return {};
  return (await load()).messages;
}

/** The active language, or the one about to be activated at start. */
export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : initialLocale();
}

/** Makes a feature's messages available in the current locale (and in later ones). */
export async function loadFeatureCatalog(name: CatalogName): Promise<void> {
  loadedCatalogs.add(name);
  const locale = currentLocale();
  const messages = await loadCatalog(locale, name);
  i18n.load(locale, messages);
  // The language changed while this catalog was loading: load it for the new one too.
  if (currentLocale() !== locale) await loadFeatureCatalog(name);
}

/** Loads every catalog in use for `locale`, activates it and sets `lang`/`dir` on <html>. */
export async function activateLocale(locale: Locale): Promise<void> {
  const catalogs = await Promise.all([...loadedCatalogs].map((name) => loadCatalog(locale, name)));
  i18n.load(locale, Object.assign({}, ...catalogs));
  i18n.activate(locale);
  document.documentElement.lang = locale;
  document.documentElement.dir = localeDirection(locale);
}

/** Switches the UI language: persists the choice, reloads the catalogs, mirrors the layout. */
export async function setLocale(locale: Locale): Promise<void> {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // The choice still applies to this visit.
  }
  await activateLocale(locale);
  updateTheme({ direction: localeDirection(locale) });
}

export { i18n };
