import { setupI18n, type Messages } from '@lingui/core';
import { describe, expect, it } from 'vitest';

import { carIdentity } from '@/ui/car-identity';

async function i18nFor(locale: 'fr' | 'en' | 'ar') {
  const { messages } = (await import(`../locales/${locale}/core.po`)) as { messages: Messages };
  return setupI18n({ locale, messages: { [locale]: messages } });
}

describe('carIdentity', () => {
  // The seed's two "Renault Symbol": only year, fuel and gearbox tell them apart.
  const symbol2022 = { year: 2022, fuel: 'diesel', transmission: 'manual' };
  const symbol2020 = { year: 2020, fuel: 'petrol', transmission: 'manual' };

  it('says year, fuel and gearbox in each language', async () => {
    expect(carIdentity(symbol2022, await i18nFor('fr'))).toBe('2022 · Diesel · Manuelle');
    expect(carIdentity(symbol2020, await i18nFor('en'))).toBe('2020 · Petrol · Manual');
    expect(carIdentity(symbol2020, await i18nFor('ar'))).toBe('2020 · بنزين · يدوي');
  });

  it('tells two cars of one name apart', async () => {
    const i18n = await i18nFor('fr');
    expect(carIdentity(symbol2022, i18n)).not.toBe(carIdentity(symbol2020, i18n));
  });

  it('shows an unknown code as it is', async () => {
    const i18n = await i18nFor('en');
    expect(carIdentity({ year: 2024, fuel: 'hydrogen', transmission: 'cvt' }, i18n)).toBe(
      '2024 · hydrogen · cvt',
    );
  });
});
