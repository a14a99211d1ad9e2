/**
 * Prices staff change (docs/staff-prices.md): a place's delivery fee, an extra's and an
 * insurance option's price and names, the driver's daily rate. Only admins at aal2; every value
 * checked in SQL with a code; a change is what `quote_booking` charges next and what the device's
 * price (src/domain/pricing.ts) computes from the rows it syncs — on random new prices. Works on
 * rows of its own (and the driver's rate inside a transaction rolled back), so the other files'
 * prices stay as the seed has them.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { LIMITS } from '../../src/domain/limits.ts';
import { computePrice, type PricingCatalogue } from '../../src/domain/pricing.ts';
import { serviceClient, testStack } from '../support/clients.ts';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  SEED,
  adminClient,
  algiersAt,
  expectCode,
  expectDenied,
  newCustomer,
  signedIn,
  visitor,
} from '../support/fixtures.ts';

const names = (tag: string) => ({ fr: `${tag} fr`, en: `${tag} en`, ar: `${tag} عربي` });

let admin: SupabaseClient;
let place: string;
let extra: string;
let insurance: string;

beforeAll(async () => {
  admin = await adminClient();
  const service = serviceClient();
  const tag = randomUUID().slice(0, 6);
  const p = await service
    .from('locations')
    .insert({ kind: 'city', name: names(`Lieu ${tag}`), delivery_fee_dzd: 1000 })
    .select('id')
    .single();
  expect(p.error).toBeNull();
  place = (p.data as { id: string }).id;
  extra = `test_extra_${tag}`;
  insurance = `test_insurance_${tag}`;
  const e = await service
    .from('extras')
    .insert({ code: extra, name: names('Extra'), price_dzd: 300, per: 'day' });
  expect(e.error).toBeNull();
  const i = await service
    .from('insurance_options')
    .insert({ code: insurance, name: names('Assurance'), price_dzd_per_day: 200 });
  expect(i.error).toBeNull();
});

const calls = () =>
  [
    ['staff_update_location', { location_id: place, delivery_fee_dzd: 1 }],
    ['staff_update_extra', { code: extra, price_dzd: 1 }],
    ['staff_update_insurance', { code: insurance, price_dzd_per_day: 1 }],
    ['staff_set_driver_rate', { driver_per_day_dzd: 1 }],
  ] as const;

describe('who may change prices', () => {
  it('anon has no execute grant; customers and staff at aal1 are not_allowed; nothing changes', async () => {
    const customer = await newCustomer();
    const aal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    for (const [fn, args] of calls()) {
      expectDenied((await visitor().rpc(fn, args)).error);
      expectCode((await customer.client.rpc(fn, args)).error, 'not_allowed');
      expectCode((await aal1.rpc(fn, args)).error, 'not_allowed');
    }
    const row = await visitor().from('extras').select('price_dzd').eq('code', extra).single();
    expect(row.data).toEqual({ price_dzd: 300 });
  });
});

describe('what a price may be', () => {
  it('refuses a negative, fractional or too large price, and a price on included insurance', async () => {
    for (const bad of [-1, LIMITS.priceDzd + 1]) {
      expectCode(
        (await admin.rpc('staff_update_extra', { code: extra, price_dzd: bad })).error,
        'invalid_price',
      );
      expectCode(
        (await admin.rpc('staff_set_driver_rate', { driver_per_day_dzd: bad })).error,
        'invalid_price',
      );
    }
    // Not a whole number: PostgREST cannot call the integer function with it.
    const fractional = await admin.rpc('staff_update_extra', { code: extra, price_dzd: 10.5 });
    expect(fractional.error).not.toBeNull();
    const max = await admin.rpc('staff_update_location', {
      location_id: place,
      delivery_fee_dzd: LIMITS.priceDzd,
    });
    expect(max.error).toBeNull();
    expectCode(
      (
        await admin.rpc('staff_update_insurance', {
          code: 'civil_liability',
          price_dzd_per_day: 100,
        })
      ).error,
      'invalid_price',
    );
  });

  it('checks the three names and the row', async () => {
    const call = (name: unknown) =>
      admin.rpc('staff_update_extra', { code: extra, price_dzd: 300, name });
    expectCode((await call({ fr: 'Siège', en: 'Seat' })).error, 'name_required');
    expectCode((await call({ ...names('x'), ar: '  ' })).error, 'name_required');
    expectCode(
      (await call({ ...names('x'), en: 'a'.repeat(LIMITS.name + 1) })).error,
      'name_too_long',
    );
    expectCode((await call({ ...names('x'), fr: 'Siège\u200b' })).error, 'invalid_name');
    const ok = await call({ fr: ' Siège rehausseur ', en: 'Booster seat', ar: 'مقعد رافع' });
    expect(ok.error).toBeNull();
    expect((ok.data as { name: unknown }).name).toEqual({
      fr: 'Siège rehausseur',
      en: 'Booster seat',
      ar: 'مقعد رافع',
    });
    expectCode(
      (await admin.rpc('staff_update_extra', { code: 'jetpack', price_dzd: 1 })).error,
      'unknown_extra',
    );
    expectCode(
      (await admin.rpc('staff_update_insurance', { code: 'meteorites', price_dzd_per_day: 1 }))
        .error,
      'unknown_insurance',
    );
    expectCode(
      (
        await admin.rpc('staff_update_location', {
          location_id: randomUUID(),
          delivery_fee_dzd: 1,
        })
      ).error,
      'location_not_found',
    );
  });
});

describe('a new price is the price: quote_booking = the device, after the change', () => {
  it('on 25 random sets of prices for a place, an extra and an insurance option', async () => {
    const client = visitor();
    const draft = {
      car_id: SEED.cars.clio5,
      start_at: algiersAt(30, 10),
      end_at: algiersAt(33, 12),
      pickup_location_id: place,
      dropoff_location_id: SEED.locations.alg,
      driver_option: 'provided' as const,
      extras: [extra, 'gps'],
      insurance: [insurance],
    };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: LIMITS.priceDzd }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        async (fee, extraPrice, insurancePrice) => {
          for (const { error } of await Promise.all([
            admin.rpc('staff_update_location', { location_id: place, delivery_fee_dzd: fee }),
            admin.rpc('staff_update_extra', { code: extra, price_dzd: extraPrice }),
            admin.rpc('staff_update_insurance', {
              code: insurance,
              price_dzd_per_day: insurancePrice,
            }),
          ])) {
            expect(error).toBeNull();
          }
          // The rows as the catalogue sync reads them (anon, select=*).
          const [car, places, extras, insurances, settings] = await Promise.all([
            client.from('cars').select('*').eq('id', draft.car_id).single(),
            client.from('locations').select('*').in('id', [place, SEED.locations.alg]),
            client.from('extras').select('*'),
            client.from('insurance_options').select('*'),
            client.from('settings').select('*').single(),
          ]);
          const fees = places.data as { id: string; delivery_fee_dzd: number }[];
          const device = computePrice(draft, {
            car: car.data as PricingCatalogue['car'],
            pickup: fees.find((l) => l.id === place)!,
            dropoff: fees.find((l) => l.id === SEED.locations.alg)!,
            extras: extras.data as PricingCatalogue['extras'],
            insurance: insurances.data as PricingCatalogue['insurance'],
            settings: settings.data as PricingCatalogue['settings'],
          });
          const quote = await client.rpc('quote_booking', { p: draft });
          expect(quote.error).toBeNull();
          expect(quote.data).toEqual(device);
          expect(device.pickup_fee).toBe(fee);
          // 3 days and 2 hours: 4 days.
          expect(device.extras_total).toBe(4 * extraPrice + 4 * 400);
          expect(device.insurance_total).toBe(4 * insurancePrice);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the driver’s rate: quote_booking charges the new one (in a transaction rolled back)', async () => {
    const db = new pg.Client({ connectionString: testStack().dbUrl });
    await db.connect();
    try {
      await db.query('begin');
      await db.query('set local role authenticated');
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: SEED.users.admin, role: 'authenticated', aal: 'aal2' }),
      ]);
      const set = await db.query<{ r: { driver_per_day_dzd: number } }>(
        'select public.staff_set_driver_rate(5200) as r',
      );
      expect(set.rows[0]!.r).toEqual({ driver_per_day_dzd: 5200 });
      const quote = await db.query<{ q: { driver_total: number; days: number } }>(
        'select public.quote_booking($1::jsonb) as q',
        [
          JSON.stringify({
            car_id: SEED.cars.clio5,
            start_at: algiersAt(30, 10),
            end_at: algiersAt(32, 10),
            driver_option: 'provided',
          }),
        ],
      );
      expect(quote.rows[0]!.q.days).toBe(2);
      expect(quote.rows[0]!.q.driver_total).toBe(2 * 5200);
    } finally {
      await db.query('rollback');
      await db.end();
    }
    const settings = await visitor().from('settings').select('driver_per_day_dzd').single();
    expect(settings.data?.driver_per_day_dzd).not.toBe(5200);
  });
});
