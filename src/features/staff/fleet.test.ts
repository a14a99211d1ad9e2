import { describe, expect, it } from 'vitest';

import { LIMITS } from '@/domain/limits';
import { carFormProblems, emptyCarForm, formToRow, slugFor } from '@/features/staff/fleet';

const complete = () => ({
  ...emptyCarForm(2025),
  name: ' Dacia Logan ',
  make: 'Dacia',
  model: 'Logan',
  engine: '1.5 dCi',
  description: { fr: 'Berline', en: 'Sedan', ar: 'سيارة سيدان' },
});

describe('the fleet form', () => {
  it('accepts a complete car and trims what it sends', () => {
    expect(carFormProblems(complete())).toEqual({});
    expect(formToRow(complete()).name).toBe('Dacia Logan');
  });

  it('mirrors the table CHECKs: required texts, lengths, ranges, the three descriptions', () => {
    const form = {
      ...complete(),
      name: '   ',
      make: 'x'.repeat(41),
      doors: 6,
      seats: 0,
      year: 1980,
      daily_rate_dzd: 0,
      deposit_dzd: -1,
      description: { fr: 'ok', en: '', ar: ' ' },
    };
    expect(carFormProblems(form)).toEqual({
      name: 'required',
      make: 'too_long',
      doors: 'out_of_range',
      seats: 'out_of_range',
      year: 'out_of_range',
      daily_rate_dzd: 'out_of_range',
      deposit_dzd: 'out_of_range',
      'description.en': 'required',
      'description.ar': 'required',
    });
  });

  it('takes mileage, daily rate and deposit up to the limits the table holds (tests/api/limits.test.ts)', () => {
    const at = {
      ...complete(),
      mileage_km: LIMITS.odometerKm,
      daily_rate_dzd: LIMITS.amountDzd,
      deposit_dzd: LIMITS.amountDzd,
    };
    expect(carFormProblems(at)).toEqual({});
    const past = {
      ...at,
      mileage_km: LIMITS.odometerKm + 1,
      daily_rate_dzd: LIMITS.amountDzd + 1,
      deposit_dzd: LIMITS.amountDzd + 1,
    };
    expect(carFormProblems(past)).toEqual({
      mileage_km: 'out_of_range',
      daily_rate_dzd: 'out_of_range',
      deposit_dzd: 'out_of_range',
    });
  });

  it('makes slugs the database accepts', () => {
    const pattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
    expect(slugFor('Peugeot 208 Allure', 'a1b2')).toBe('peugeot-208-allure-a1b2');
    expect(slugFor('Chéry Tiggo 4 — Pro', 'x9')).toBe('chery-tiggo-4-pro-x9');
    expect(slugFor('سيارة', 'x9')).toBe('car-x9');
    expect(slugFor('a'.repeat(100), 'zz').length).toBeLessThanOrEqual(80);
    for (const s of ['Peugeot 208', '--', 'Été 2024!']) expect(slugFor(s, 'ab')).toMatch(pattern);
  });
});
