import { i18n } from '@lingui/core';

export const locales = ['fr', 'en', 'ar'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'fr';

/** Loads a compiled catalog on demand and makes it active. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = (await import(`../locales/${locale}/messages.po`)) as {
    messages: Record<string, string>;
  };
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
  document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
}

export { i18n };
