/**
 * The device's price (src/domain/pricing.ts) equals the server's (`quote_booking`), on random drafts
 * over the seed's real catalogue: any car, any rental from a minute to 90 days written with any
 * offset, any places (or none yet), driver or not, any extras and insurance — retired and
 * unknown codes included, where both must refuse with the same code.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { computePrice, PricingError, type PricingCatalogue } from '../../src/domain/pricing.ts';
import { serviceClient } from '../support/clients.ts';
import { visitor } from '../support/fixtures.ts';

type Row = Record<string, unknown>;
type Catalogue = {
  cars: { id: string; daily_rate_dzd: number; deposit_dzd: number; active: boolean }[];
  locations: { id: string; delivery_fee_dzd: number; active: boolean }[];
  extras: PricingCatalogue['extras'];
  insurance: PricingCatalogue['insurance'];
  settings: { driver_per_day_dzd: number };
};

let catalogue: Catalogue;

async function rows<T = Row>(table: string): Promise<T[]> {
  const { data, error } = await serviceClient().from(table).select('*');
  if (error) throw error;
  return data as T[];
}

beforeAll(async () => {
  const [cars, locations, extras, insurance, settings] = await Promise.all([
    rows<Catalogue['cars'][number]>('cars'),
    rows<Catalogue['locations'][number]>('locations'),
    rows<Catalogue['extras'][number]>('extras'),
    rows<Catalogue['insurance'][number]>('insurance_options'),
    rows<Catalogue['settings']>('settings'),
  ]);
  catalogue = { cars, locations, extras, insurance, settings: settings[0]! };
});

type Draft = {
  car_id: string;
  start_at: string;
  end_at: string;
  pickup_location_id: string | null;
  dropoff_location_id: string | null;
  driver_option: 'self' | 'provided';
  extras: string[];
  insurance: string[];
};

/** An instant written with one of the offsets people and devices send. */
function written(ms: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

function draftArbitrary(): fc.Arbitrary<Draft> {
  const activeCars = catalogue.cars.filter((c) => c.active).map((c) => c.id);
  const activeLocations = catalogue.locations.filter((l) => l.active).map((l) => l.id);
  const extraCodes = catalogue.extras.map((e) => e.code);
  const insuranceCodes = catalogue.insurance.map((i) => i.code);
  const activeExtras = catalogue.extras.filter((e) => e.active).map((e) => e.code);
  const activeInsurance = catalogue.insurance.filter((i) => i.active).map((i) => i.code);
  const offsets = fc.constantFrom(0, 60, -300, 330, 120);
  return fc
    .record({
      car_id: fc.constantFrom(...activeCars),
      startMs: fc.integer({
        min: Date.parse('2027-01-01T00:00:00Z'),
        max: Date.parse('2028-12-31T00:00:00Z'),
      }),
      // From one minute to 90 days, with a bias for the edges of whole days.
      minutes: fc.oneof(
        fc.integer({ min: 1, max: 90 * 24 * 60 }),
        fc
          .integer({ min: 1, max: 90 })
          .chain((d) => fc.constantFrom(d * 1440 - 1, d * 1440, d * 1440 + 1)),
      ),
      startOffset: offsets,
      endOffset: offsets,
      pickup: fc.option(fc.constantFrom(...activeLocations), { freq: 4 }),
      dropoff: fc.option(fc.constantFrom(...activeLocations), { freq: 4 }),
      driver_option: fc.constantFrom('self' as const, 'provided' as const),
      // Mostly active codes; now and then a retired or unknown one, which both must refuse.
      extras: fc.oneof(
        { weight: 9, arbitrary: fc.subarray(activeExtras) },
        { weight: 1, arbitrary: fc.subarray([...extraCodes, 'jetpack']) },
      ),
      insurance: fc.oneof(
        { weight: 9, arbitrary: fc.subarray(activeInsurance) },
        { weight: 1, arbitrary: fc.subarray([...insuranceCodes, 'meteorites']) },
      ),
    })
    .map((r) => ({
      car_id: r.car_id,
      start_at: written(r.startMs, r.startOffset),
      end_at: written(r.startMs + (r.minutes > 0 ? r.minutes : 1) * 60_000, r.endOffset),
      pickup_location_id: r.pickup,
      dropoff_location_id: r.dropoff,
      driver_option: r.driver_option,
      extras: r.extras,
      insurance: r.insurance,
    }));
}

function devicePrice(d: Draft) {
  const car = catalogue.cars.find((c) => c.id === d.car_id)!;
  const place = (id: string | null) =>
    id ? catalogue.locations.find((l) => l.id === id)! : { delivery_fee_dzd: 0 };
  try {
    return {
      ok: true as const,
      price: computePrice(d, {
        car,
        pickup: place(d.pickup_location_id),
        dropoff: place(d.dropoff_location_id),
        extras: catalogue.extras,
        insurance: catalogue.insurance,
        settings: catalogue.settings,
      }),
    };
  } catch (error) {
    if (error instanceof PricingError) return { ok: false as const, code: error.code };
    throw error;
  }
}

describe('pricing: TypeScript = SQL', () => {
  it('the seed has what the property needs', () => {
    expect(catalogue.cars.filter((c) => c.active).length).toBeGreaterThan(3);
    expect(catalogue.locations.some((l) => l.delivery_fee_dzd > 0)).toBe(true);
    expect(catalogue.extras.some((e) => e.per === 'rental')).toBe(true);
    expect(catalogue.insurance.some((i) => i.included)).toBe(true);
    expect(catalogue.settings.driver_per_day_dzd).toBeGreaterThan(0);
  });

  it('computes the same breakdown as quote_booking on 600 random drafts', async () => {
    const client = visitor();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(draftArbitrary(), async (draft) => {
        const { data, error } = await client.rpc('quote_booking', { p: draft });
        const local = devicePrice(draft);
        if (error) {
          expect(error.code, JSON.stringify(error)).toBe('P0001');
          expect(local).toEqual({ ok: false, code: error.message });
          refused += 1;
          return;
        }
        expect(local).toEqual({ ok: true, price: data });
      }),
      { numRuns: 600 },
    );
    // Retired or unknown codes were exercised, and most drafts were priced.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(300);
  });
});
