import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { PricingInput } from '@/domain/booking-request';
import {
  computePrice,
  normalizeInsurance,
  priceRequest,
  PricingError,
  samePrice,
} from '@/domain/pricing';
import type { PricingCatalogue, PricingRows } from '@/domain/pricing';

const catalogue: PricingCatalogue = {
  car: { daily_rate_dzd: 6500, deposit_dzd: 40000 },
  pickup: { delivery_fee_dzd: 1500 },
  dropoff: { delivery_fee_dzd: 2500 },
  extras: [
    { code: 'baby_seat', price_dzd: 500, per: 'day', active: true },
    { code: 'full_tank', price_dzd: 7000, per: 'rental', active: true },
    { code: 'gps', price_dzd: 300, per: 'day', active: true },
    { code: 'wifi_hotspot', price_dzd: 400, per: 'day', active: false },
  ],
  insurance: [
    { code: 'civil_liability', price_dzd_per_day: 0, included: true, active: true },
    { code: 'collision_damage', price_dzd_per_day: 1200, included: false, active: true },
    { code: 'tires', price_dzd_per_day: 200, included: false, active: true },
  ],
  settings: { driver_per_day_dzd: 3000 },
};

const draft: PricingInput = {
  start_at: '2027-03-12T10:00:00+01:00',
  end_at: '2027-03-15T10:00:00+01:00',
  driver_option: 'self',
  extras: [],
  insurance: ['civil_liability'],
};

describe('computePrice', () => {
  it('charges base × days and both delivery fees', () => {
    expect(computePrice(draft, catalogue)).toEqual({
      days: 3,
      base: 19500,
      extras_total: 0,
      insurance_total: 0,
      driver_total: 0,
      pickup_fee: 1500,
      dropoff_fee: 2500,
      subtotal: 23500,
      deposit: 40000,
      total: 23500,
      currency: 'DZD',
    });
  });

  it('rounds a started 24-hour period up, and charges at least one day', () => {
    expect(computePrice({ ...draft, end_at: '2027-03-15T10:01:00+01:00' }, catalogue).days).toBe(4);
    expect(computePrice({ ...draft, end_at: '2027-03-12T11:00:00+01:00' }, catalogue).days).toBe(1);
  });

  it('counts days in absolute time, whatever the offsets written', () => {
    const p = computePrice(
      { ...draft, start_at: '2027-03-12T09:00:00Z', end_at: '2027-03-13T10:00:00+01:00' },
      catalogue,
    );
    expect(p.days).toBe(1);
  });

  it('charges per-day extras per day and per-rental extras once, each code once', () => {
    const p = computePrice(
      { ...draft, extras: ['baby_seat', 'full_tank', 'baby_seat'] },
      catalogue,
    );
    expect(p.extras_total).toBe(500 * 3 + 7000);
    expect(p.subtotal).toBe(19500 + 8500 + 1500 + 2500);
  });

  it('charges non-included insurance per day, civil liability free', () => {
    const p = computePrice({ ...draft, insurance: ['collision_damage', 'tires'] }, catalogue);
    expect(p.insurance_total).toBe((1200 + 200) * 3);
  });

  it('charges the driver per day only when provided', () => {
    expect(computePrice({ ...draft, driver_option: 'provided' }, catalogue).driver_total).toBe(
      9000,
    );
    expect(computePrice(draft, catalogue).driver_total).toBe(0);
  });

  it('refuses unknown or retired codes like the server', () => {
    expect(() => computePrice({ ...draft, extras: ['wifi_hotspot'] }, catalogue)).toThrow(
      PricingError,
    );
    expect(() => computePrice({ ...draft, extras: ['jetpack'] }, catalogue)).toThrow(
      'unknown_extra',
    );
    expect(() => computePrice({ ...draft, insurance: ['alien_abduction'] }, catalogue)).toThrow(
      'unknown_insurance',
    );
    expect(() => computePrice({ ...draft, start_at: 'soon' }, catalogue)).toThrow('invalid_dates');
  });

  it('keeps subtotal = sum of parts and total = subtotal, for any draft', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 90 * 24 * 60 }),
        fc.subarray(['baby_seat', 'full_tank', 'gps']),
        fc.subarray(['collision_damage', 'tires']),
        fc.constantFrom('self' as const, 'provided' as const),
        (minutes, extras, insurance, driver) => {
          const start = Date.parse('2027-03-12T09:00:00Z');
          const p = computePrice(
            {
              start_at: new Date(start).toISOString(),
              end_at: new Date(start + minutes * 60_000).toISOString(),
              driver_option: driver,
              extras,
              insurance,
            },
            catalogue,
          );
          expect(p.days).toBe(Math.ceil(minutes / 1440));
          expect(p.subtotal).toBe(
            p.base +
              p.extras_total +
              p.insurance_total +
              p.driver_total +
              p.pickup_fee +
              p.dropoff_fee,
          );
          expect(p.total).toBe(p.subtotal);
          expect(Number.isInteger(p.total)).toBe(true);
        },
      ),
    );
  });
});

describe('normalizeInsurance', () => {
  it('always carries civil liability once', () => {
    expect(normalizeInsurance([])).toEqual(['civil_liability']);
    expect(normalizeInsurance(['tires', 'civil_liability', 'tires'])).toEqual([
      'civil_liability',
      'tires',
    ]);
  });
});

describe('samePrice', () => {
  it('compares every amount', () => {
    const p = computePrice(draft, catalogue);
    expect(samePrice(p, { ...p })).toBe(true);
    expect(samePrice(p, { ...p, dropoff_fee: 0 })).toBe(false);
  });
});

describe('priceRequest', () => {
  const rows: PricingRows = {
    cars: [{ id: 'car', ...catalogue.car }],
    locations: [
      { id: 'agency', ...catalogue.pickup },
      { id: 'airport', ...catalogue.dropoff },
    ],
    extras: catalogue.extras,
    insurance: catalogue.insurance,
    settings: catalogue.settings,
  };
  const request = {
    ...draft,
    car_id: 'car',
    pickup_location_id: 'agency',
    dropoff_location_id: 'airport',
  };

  it('prices a request from the synced rows', () => {
    expect(priceRequest(request, rows)).toEqual(computePrice(draft, catalogue));
  });

  it('charges nothing yet for a place not chosen yet', () => {
    const early = { ...request, pickup_location_id: null, dropoff_location_id: null };
    expect(priceRequest(early, rows)).toMatchObject({ pickup_fee: 0, dropoff_fee: 0 });
  });

  it('cannot price without the settings, an unknown car or place, or a retired option', () => {
    expect(priceRequest(request, { ...rows, settings: null })).toBeNull();
    expect(priceRequest({ ...request, car_id: 'gone' }, rows)).toBeNull();
    expect(priceRequest({ ...request, dropoff_location_id: 'gone' }, rows)).toBeNull();
    expect(priceRequest({ ...request, extras: ['wifi_hotspot'] }, rows)).toBeNull();
  });
});
