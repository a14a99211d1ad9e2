/**
 * The catalogue the app syncs: the seed's fleet, places and options as the spec's filters need
 * them, the pictures each car names, the keyset delta cursor and car_busy_periods.
 */
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import {
  adminClient,
  algiersAt,
  book,
  expectCode,
  newCar,
  staffMoves,
  visitor,
  type Car,
  type Localized,
} from '../support/fixtures.ts';

type Location = {
  kind: 'city' | 'airport';
  iata: string | null;
  name: Localized;
  delivery_fee_dzd: number;
};
type Extra = { code: string };
type InsuranceOption = { code: string; included: boolean; price_dzd_per_day: number };

const publicDir = fileURLToPath(new URL('../../public', import.meta.url));

async function seedCars(): Promise<Car[]> {
  const { data, error } = await visitor().from('cars').select('*').order('slug');
  expect(error).toBeNull();
  // The seed's fixed ids (tests add cars of their own).
  return (data as Car[]).filter((c) => c.id.startsWith('ca000000-'));
}

describe('the seed fleet', () => {
  it('has at least 40 active cars, every field filled', async () => {
    const cars = await seedCars();
    const active = cars.filter((c) => c.active);
    expect(active.length).toBeGreaterThanOrEqual(40);
    for (const car of cars) {
      for (const [key, value] of Object.entries(car)) {
        if (key === 'rating_avg') continue;
        expect(value, `${car.slug}.${key}`).not.toBeNull();
        if (typeof value === 'string') expect(value.trim(), `${car.slug}.${key}`).not.toBe('');
      }
      for (const lang of ['fr', 'en', 'ar'] as const)
        expect(car.description[lang].length).toBeGreaterThan(20);
      expect(car.features.length).toBeGreaterThan(0);
      expect(car.year).toBeGreaterThanOrEqual(2019);
      expect(car.year).toBeLessThanOrEqual(2025);
      expect(car.daily_rate_dzd).toBeGreaterThanOrEqual(3500);
      expect(car.daily_rate_dzd).toBeLessThanOrEqual(25000);
      expect(car.deposit_dzd).toBeGreaterThanOrEqual(30000);
      expect(car.deposit_dzd).toBeLessThanOrEqual(200000);
      expect(car.images.length).toBeGreaterThanOrEqual(2);
      expect(car.images.length).toBeLessThanOrEqual(3);
    }
  });

  it('matches every value of the spec’s filters', async () => {
    const active = (await seedCars()).filter((c) => c.active);
    for (const passengers of [2, 4, 5]) {
      expect(
        active.some((c) => c.passengers === passengers),
        `${passengers} passengers`,
      ).toBe(true);
    }
    for (const transmission of ['automatic', 'manual']) {
      expect(active.some((c) => c.transmission === transmission)).toBe(true);
    }
    for (const feature of ['air_conditioning', 'gps', 'sunroof', 'leather_seats']) {
      expect(
        active.some((c) => c.features.includes(feature as never)),
        feature,
      ).toBe(true);
    }
    const bodies = new Set(active.map((c) => c.body));
    expect([...bodies].sort()).toEqual(['city', 'hatchback', 'pickup', 'sedan', 'suv', 'van']);
  });

  it('names pictures that exist in public/cars, small SVGs', async () => {
    for (const car of await seedCars()) {
      for (const image of car.images) {
        expect(image).toMatch(new RegExp(`^/cars/${car.slug}-[1-3]\\.svg$`));
        const file = `${publicDir}${image}`;
        expect(existsSync(file), file).toBe(true);
        expect(statSync(file).size).toBeLessThan(12_000);
      }
    }
  });

  it('shows stars from the seed reviews', async () => {
    const { data } = await visitor()
      .from('cars')
      .select('slug, rating_avg, rating_count')
      .eq('slug', 'renault-clio-5-2023')
      .single();
    expect(data).toEqual({ slug: 'renault-clio-5-2023', rating_avg: 4.5, rating_count: 2 });
    const reviews = await visitor()
      .from('car_reviews')
      .select('author_name')
      .eq('car_id', 'ca000000-0000-4000-8000-000000000001');
    expect(reviews.data?.map((r) => r.author_name).sort()).toEqual(['Amina L.', 'Karim B.']);
  });
});

describe('places, options and settings', () => {
  it('offers at least 12 places: free agency branches, delivered city centres and the airports', async () => {
    const { data } = await visitor().from('locations').select('*').eq('active', true);
    const places = data as Location[];
    expect(places.length).toBeGreaterThanOrEqual(12);
    const airports = places.filter((p) => p.kind === 'airport').map((p) => p.iata);
    expect(airports).toEqual(
      expect.arrayContaining([
        'ALG',
        'ORN',
        'CZL',
        'AAE',
        'TLM',
        'BJA',
        'QSF',
        'GHA',
        'TMR',
        'HME',
      ]),
    );
    expect(places.some((p) => p.kind === 'city' && p.delivery_fee_dzd === 0)).toBe(true);
    expect(places.some((p) => p.kind === 'city' && p.delivery_fee_dzd > 0)).toBe(true);
    for (const p of places) expect(p.name.ar.length).toBeGreaterThan(0);
  });

  it('has the six extras and six insurance options, civil liability included at 0', async () => {
    // Other test files add their own `test_…` options (tests/api/staff-prices.test.ts) while
    // this one runs: the seed's are the rest.
    const seeded = <T extends { code: string }>(rows: T[]) =>
      rows.filter((row) => !row.code.startsWith('test_'));
    const extras = seeded((await visitor().from('extras').select('*')).data as Extra[]);
    expect(extras.map((e) => e.code).sort()).toEqual([
      'additional_insurance',
      'baby_seat',
      'full_tank',
      'gps',
      'second_driver',
      'wifi_hotspot',
    ]);
    const insurance = seeded(
      (await visitor().from('insurance_options').select('*')).data as InsuranceOption[],
    );
    expect(insurance.map((i) => i.code).sort()).toEqual([
      'breakdown_assistance',
      'civil_liability',
      'collision_damage',
      'glass_headlights',
      'replacement_vehicle',
      'tires',
    ]);
    expect(insurance.find((i) => i.code === 'civil_liability')).toMatchObject({
      included: true,
      price_dzd_per_day: 0,
    });
    expect(insurance.filter((i) => i.included)).toHaveLength(1);
  });

  it('has the settings row', async () => {
    const { data } = await visitor()
      .from('settings')
      .select('driver_per_day_dzd, min_age, currency, time_zone')
      .single();
    expect(data).toEqual({
      driver_per_day_dzd: 4000,
      min_age: 18,
      currency: 'DZD',
      time_zone: 'Africa/Algiers',
    });
  });
});

describe('the delta cursor', () => {
  it('moves updated_at forward on every change and cannot be set by the client', async () => {
    const car = await newCar();
    const admin = await adminClient();
    const { data } = await admin
      .from('cars')
      .update({ daily_rate_dzd: 5100 })
      .eq('id', car.id)
      .select('updated_at')
      .single();
    expect(Date.parse(data!.updated_at)).toBeGreaterThan(Date.parse(car.updated_at));
    const forged = await admin
      .from('cars')
      .update({ updated_at: '2000-01-01T00:00:00Z' })
      .eq('id', car.id);
    expect(forged.error?.code).toBe('42501');
  });

  it('pages through the cars with (updated_at, id) without skipping or repeating one', async () => {
    const client = visitor();
    const seen: string[] = [];
    let cursor: { updated_at: string; id: string } | null = null;
    for (;;) {
      let query = client
        .from('cars')
        .select('id, updated_at')
        .order('updated_at')
        .order('id')
        .limit(7);
      if (cursor) {
        const at = `"${cursor.updated_at}"`;
        query = query.or(`updated_at.gt.${at},and(updated_at.eq.${at},id.gt.${cursor.id})`);
      }
      const { data, error } = await query;
      expect(error).toBeNull();
      if (!data || data.length === 0) break;
      seen.push(...data.map((r) => r.id));
      cursor = data.at(-1)!;
    }
    const all = await client.from('cars').select('id');
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(all.data!.length);
  });
});

describe('car_busy_periods', () => {
  it('lists active bookings overlapping the window, without personal data', async () => {
    const car = (await newCar()).id;
    const guest = visitor();
    const pending = await book(guest, car, {
      start_at: algiersAt(20, 10),
      end_at: algiersAt(22, 10),
    });
    const rejected = await book(guest, car, {
      start_at: algiersAt(23, 10),
      end_at: algiersAt(24, 10),
    });
    await staffMoves(rejected.id, ['rejected']);
    const reserved = await book(guest, car, {
      start_at: algiersAt(25, 10),
      end_at: algiersAt(26, 10),
    });
    await staffMoves(reserved.id, ['reserved']);

    const { data, error } = await guest.rpc('car_busy_periods', {
      from: algiersAt(21),
      to: algiersAt(40),
    });
    expect(error).toBeNull();
    const mine = (data as { car_id: string; start_at: string; end_at: string }[]).filter(
      (r) => r.car_id === car,
    );
    expect(mine.map((r) => Date.parse(r.start_at))).toEqual([
      Date.parse(pending.start_at),
      Date.parse(reserved.start_at),
    ]);
    expect(mine[0]).toEqual({
      car_id: car,
      start_at: expect.any(String),
      end_at: expect.any(String),
    });

    // A window ending when the first booking starts does not see it ([) bounds).
    const before = await guest.rpc('car_busy_periods', {
      from: algiersAt(10),
      to: algiersAt(20, 10),
    });
    expect((before.data as { car_id: string }[]).filter((r) => r.car_id === car)).toEqual([]);
  });

  it('refuses a window that ends before it starts or spans more than 800 days', async () => {
    const guest = visitor();
    expectCode(
      (await guest.rpc('car_busy_periods', { from: algiersAt(10), to: algiersAt(5) })).error,
      'invalid_dates',
    );
    expectCode(
      (await guest.rpc('car_busy_periods', { from: algiersAt(0), to: algiersAt(900) })).error,
      'invalid_dates',
    );
  });
});
