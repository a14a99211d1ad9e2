import { msg } from '@lingui/core/macro';
import { beforeEach, describe, expect, it } from 'vitest';

import {
  activateLocale,
  i18n,
  initialLocale,
  loadFeatureCatalog,
  LOCALE_STORAGE_KEY,
  setLocale,
} from '@/infra/i18n';
import { getTheme } from '@/infra/theme';

describe('i18n', () => {
  beforeEach(async () => {
    localStorage.clear();
    await activateLocale('fr');
  });

  it('starts in French, or in the stored language', () => {
    expect(initialLocale()).toBe('fr');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'ar');
    expect(initialLocale()).toBe('ar');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'de');
    expect(initialLocale()).toBe('fr');
  });

  it('switching to Arabic persists it, sets lang and dir=rtl and the theme direction', async () => {
    await setLocale('ar');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(getTheme().direction).toBe('rtl');
    expect(i18n._(msg`Accueil`)).toBe('الرئيسية');

    await setLocale('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(getTheme().direction).toBe('ltr');
    expect(i18n._(msg`Accueil`)).toBe('Home');
  });

  it('loads a feature catalog, and reloads it in the next language', async () => {
    await setLocale('en');
    await loadFeatureCatalog('content');
    expect(i18n._(msg`Questions fréquentes`)).toBe('Frequently asked questions');
    await setLocale('ar');
    expect(i18n._(msg`Questions fréquentes`)).toBe('الأسئلة الشائعة');
  });
});
