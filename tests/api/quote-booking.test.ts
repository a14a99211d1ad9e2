/**
 * quote_booking: the worked examples of docs/pricing.md on the seed's catalogue, and what a
 * quote refuses (only what makes a price impossible). The property test holding the SQL and the
 * TypeScript pricing equal is tests/api/pricing.test.ts.
 */
import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SEED, expectCode, visitor } from '../support/fixtures.ts';

function quote(p: unknown) {
  return visitor().rpc('quote_booking', { p });
}

const threeDays = {
  start_at: '2027-03-12T10:00:00+01:00',
  end_at: '2027-03-15T10:00:00+01:00',
};

describe('quote_booking: the worked examples of docs/pricing.md', () => {
  it('example 1: a Clio 5 for exactly three days at the Algiers branch', async () => {
    const { data, error } = await quote({
      car_id: SEED.cars.clio5,
      ...threeDays,
      pickup_location_id: SEED.locations.algerCentre,
      dropoff_location_id: SEED.locations.algerCentre,
      driver_option: 'self',
      extras: [],
      insurance: ['civil_liability'],
    });
    expect(error).toBeNull();
    expect(data).toEqual({
      days: 3,
      base: 16500,
      extras_total: 0,
      insurance_total: 0,
      driver_total: 0,
      pickup_fee: 0,
      dropoff_fee: 0,
      subtotal: 16500,
      deposit: 50000,
      total: 16500,
      currency: 'DZD',
    });
  });

  it('example 2: a Duster 4x4, one minute over three days, with driver, extras and cover', async () => {
    const { data } = await quote({
      car_id: SEED.cars.duster4x4,
      start_at: '2027-03-12T10:00:00+01:00',
      end_at: '2027-03-15T10:01:00+01:00',
      pickup_location_id: SEED.locations.alg,
      dropoff_location_id: SEED.locations.tamanrassetCentre,
      driver_option: 'provided',
      extras: ['baby_seat', 'full_tank'],
      insurance: ['collision_damage', 'tires'],
    });
    expect(data).toEqual({
      days: 4,
      base: 34000,
      extras_total: 9000,
      insurance_total: 7200,
      driver_total: 16000,
      pickup_fee: 1500,
      dropoff_fee: 8000,
      subtotal: 75700,
      deposit: 80000,
      total: 75700,
      currency: 'DZD',
    });
  });

  it('example 3: two hours count as one day; the same airport is charged both ways', async () => {
    const { data } = await quote({
      car_id: SEED.cars.peugeot2008,
      start_at: '2027-03-12T08:00:00Z',
      end_at: '2027-03-12T10:00:00Z',
      pickup_location_id: SEED.locations.alg,
      dropoff_location_id: SEED.locations.alg,
      driver_option: 'self',
    });
    expect(data).toMatchObject({
      days: 1,
      base: 9800,
      pickup_fee: 1500,
      dropoff_fee: 1500,
      total: 12800,
    });
  });

  it('example 4: a draft at the price step (no place, no driver option yet)', async () => {
    const { data } = await quote({ car_id: SEED.cars.clio5, ...threeDays });
    expect(data).toMatchObject({
      days: 3,
      base: 16500,
      pickup_fee: 0,
      dropoff_fee: 0,
      driver_total: 0,
      total: 16500,
    });
  });

  it('counts absolute time whatever the offsets; codes are a set', async () => {
    const { data } = await quote({
      car_id: SEED.cars.clio5,
      start_at: '2027-03-12T09:00:00Z',
      end_at: '2027-03-13T10:00:00+01:00',
      extras: ['gps', 'gps'],
      insurance: ['tires', 'civil_liability', 'tires'],
    });
    expect(data).toMatchObject({ days: 1, extras_total: 400, insurance_total: 300, total: 6200 });
  });

  it('quotes past dates and long rentals (the clock and the 90 days are create_booking’s)', async () => {
    const past = await quote({
      car_id: SEED.cars.clio5,
      start_at: '2020-01-01T10:00:00Z',
      end_at: '2020-01-02T10:00:00Z',
    });
    expect(past.data).toMatchObject({ days: 1, total: 5500 });
    const long = await quote({
      car_id: SEED.cars.clio5,
      start_at: '2027-01-01T10:00:00Z',
      end_at: '2027-07-01T10:00:00Z',
    });
    expect(long.data).toMatchObject({ days: 181, base: 995500 });
  });
});

describe('quote_booking refuses only what makes a price impossible', () => {
  const ok = { car_id: SEED.cars.clio5, ...threeDays };

  it('invalid_payload for something that is not an object or has wrong types', async () => {
    expectCode((await quote([ok])).error, 'invalid_payload');
    expectCode((await quote({ ...ok, car_id: 'clio' })).error, 'invalid_payload');
    expectCode((await quote({ ...ok, extras: 'gps' })).error, 'invalid_payload');
  });
  it('invalid_dates for missing dates, a return not after the pickup, or no offset', async () => {
    expectCode((await quote({ car_id: SEED.cars.clio5 })).error, 'invalid_dates');
    expectCode((await quote({ ...ok, end_at: ok.start_at })).error, 'invalid_dates');
    expectCode((await quote({ ...ok, end_at: '2027-03-15T10:00:00' })).error, 'invalid_dates');
  });
  it('car_not_found for an unknown or retired car', async () => {
    expectCode((await quote({ ...ok, car_id: randomUUID() })).error, 'car_not_found');
    expectCode((await quote({ ...ok, car_id: SEED.cars.retiredClio4 })).error, 'car_not_found');
  });
  it('location_not_found, invalid_driver_option, unknown_extra, unknown_insurance', async () => {
    expectCode(
      (await quote({ ...ok, pickup_location_id: randomUUID() })).error,
      'location_not_found',
    );
    expectCode((await quote({ ...ok, driver_option: 'taxi' })).error, 'invalid_driver_option');
    expectCode((await quote({ ...ok, extras: ['jetpack'] })).error, 'unknown_extra');
    expectCode((await quote({ ...ok, insurance: ['meteorites'] })).error, 'unknown_insurance');
  });
});
