/**
 * Opening hours of the places (docs/opening-hours.md). The device's rule
 * (src/domain/opening-hours.ts) equals the server's (`create_booking`) on random pickup and return
 * times, written with any offset, over the seed's places and places with odd hours and closed
 * dates; staff set hours with `staff_set_opening_hours`, which nobody else may call.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { LIMITS } from '../../src/domain/limits.ts';
import {
  openingHoursProblem,
  type PlaceHours,
  type WeekHours,
} from '../../src/domain/opening-hours.ts';
import { sql } from '../support/clients.ts';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  SEED,
  adminClient,
  createBooking,
  draft,
  expectCode,
  expectDenied,
  guestContact,
  newCustomer,
  signedIn,
  visitor,
} from '../support/fixtures.ts';

type Place = PlaceHours & { id: string };

let admin: SupabaseClient;
let places: Place[];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A new active place (city, no fee) with these hours, through the staff RPC. */
async function placeWith(hours: WeekHours, closed: string[]): Promise<Place> {
  const name = `Horaires ${randomUUID().slice(0, 6)}`;
  const inserted = await admin
    .from('locations')
    .insert({ kind: 'city', name: { fr: name, en: name, ar: name }, delivery_fee_dzd: 0 })
    .select('id')
    .single();
  expect(inserted.error).toBeNull();
  const id = (inserted.data as { id: string }).id;
  const { data, error } = await admin.rpc('staff_set_opening_hours', {
    location_id: id,
    opening_hours: hours,
    closed_dates: closed,
  });
  expect(error).toBeNull();
  return data as Place;
}

/** An Algiers date `days` from today. */
function algiersDate(days: number): string {
  return new Date(Date.now() + 60 * 60 * 1000 + days * DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  admin = await adminClient();
  const seed = await visitor()
    .from('locations')
    .select('id, opening_hours, closed_dates')
    .in('id', [SEED.locations.alg, SEED.locations.algerCentre]);
  expect(seed.error).toBeNull();
  const odd = await placeWith(
    [null, [455, 1021], [0, 1440], [600, 601], null, [61, 1439], [720, 1200]],
    [algiersDate(3), algiersDate(10), algiersDate(11), algiersDate(40)],
  );
  const night = await placeWith(
    [[0, 300], [0, 300], [1200, 1440], null, [0, 1440], [30, 90], [1380, 1440]],
    [algiersDate(5), algiersDate(6)],
  );
  places = [...(seed.data as Place[]), odd, night];
});

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

/** The instant of Algiers `minute` (plus `second`) on the day `days` from today. */
function algiersInstant(days: number, minute: number, second: number): number {
  const midnight = Date.parse(`${algiersDate(days)}T00:00:00+01:00`);
  return midnight + minute * 60_000 + second * 1000;
}

describe('opening hours: TypeScript = SQL', () => {
  it('the seed opens airports 06:00–23:00 every day and city agencies 08:00–19:00 but Friday', () => {
    const alg = places.find((p) => p.id === SEED.locations.alg)!;
    const centre = places.find((p) => p.id === SEED.locations.algerCentre)!;
    expect(alg.opening_hours).toEqual(Array.from({ length: 7 }, () => [360, 1380]));
    expect(centre.opening_hours).toEqual([
      [480, 1140],
      [480, 1140],
      [480, 1140],
      [480, 1140],
      [480, 1140],
      null,
      [480, 1140],
    ]);
  });

  it('create_booking refuses exactly the times the device refuses, on 300 random drafts', async () => {
    const client = visitor();
    // Minutes near every opening and closing time, so the edges are tried often.
    const edges = [
      ...new Set(
        places.flatMap((p) =>
          (p.opening_hours ?? []).flatMap((h) => (h ? [h[0] - 1, h[0], h[1], h[1] + 1] : [])),
        ),
      ),
    ].filter((m) => m >= 0 && m < 1440);
    const offsets = fc.constantFrom(0, 60, -300, 330, 120);
    const at = fc.record({
      days: fc.integer({ min: 1, max: 70 }),
      minute: fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.constantFrom(...edges)),
      second: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 59 })),
      offset: offsets,
    });
    const ids = places.map((p) => p.id);
    const cars = [SEED.cars.clio5, SEED.cars.duster4x4, SEED.cars.peugeot2008];
    const counts = { pickup_outside_hours: 0, return_outside_hours: 0, open: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          car: fc.constantFrom(...cars),
          pickup: fc.constantFrom(...ids),
          dropoff: fc.constantFrom(...ids),
          start: at,
          end: at,
          // The return 0–10 days after the pickup's day.
          later: fc.integer({ min: 0, max: 10 }),
        }),
        async (r) => {
          const startMs = algiersInstant(r.start.days, r.start.minute, r.start.second);
          let endMs = algiersInstant(r.start.days + r.later, r.end.minute, r.end.second);
          if (endMs <= startMs) endMs += DAY_MS;
          const request = {
            start_at: written(startMs, r.start.offset),
            end_at: written(endMs, r.end.offset),
            pickup_location_id: r.pickup,
            dropoff_location_id: r.dropoff,
          };
          // No licence uploaded: a draft inside the hours is refused one check later.
          const payload = draft(r.car, { ...request, ...guestContact() });
          const { error } = await createBooking(client, payload);
          expect(error?.code, JSON.stringify(error)).toBe('P0001');
          const device = openingHoursProblem(request, places);
          expect(error!.message, JSON.stringify(request)).toBe(device ?? 'licence_required');
          counts[device ?? 'open'] += 1;
        },
      ),
      { numRuns: 300 },
    );
    // Both refusals and acceptances were exercised.
    expect(counts.pickup_outside_hours).toBeGreaterThan(10);
    expect(counts.return_outside_hours).toBeGreaterThan(10);
    expect(counts.open).toBeGreaterThan(10);
  });
});

describe('staff_set_opening_hours', () => {
  const week: WeekHours = Array.from({ length: 7 }, (): [number, number] => [480, 1080]);

  it('stores the hours and the closed dates sorted, once each, and bumps the sync cursor', async () => {
    const place = await placeWith(week, []);
    const before = await visitor()
      .from('locations')
      .select('updated_at')
      .eq('id', place.id)
      .single();
    const { data, error } = await admin.rpc('staff_set_opening_hours', {
      location_id: place.id,
      opening_hours: [null, ...week.slice(1)],
      closed_dates: ['2027-05-01', '2027-01-01', '2027-05-01'],
    });
    expect(error).toBeNull();
    const row = data as Place & { updated_at: string };
    expect(row.opening_hours?.[0]).toBeNull();
    expect(row.closed_dates).toEqual(['2027-01-01', '2027-05-01']);
    expect(Date.parse(row.updated_at)).toBeGreaterThan(Date.parse(before.data!.updated_at));
  });

  it('refuses hours of the wrong shape, too many closed dates and unknown places', async () => {
    const place = await placeWith(week, []);
    const call = (opening_hours: unknown, closed_dates: string[] = [], id = place.id) =>
      admin.rpc('staff_set_opening_hours', { location_id: id, opening_hours, closed_dates });
    for (const bad of [
      week.slice(1),
      [...week.slice(1), [600, 600]],
      [...week.slice(1), [-1, 600]],
      [...week.slice(1), [600, 1441]],
      [...week.slice(1), [600.5, 700]],
      [...week.slice(1), ['08:00', '19:00']],
      { monday: [480, 1140] },
    ]) {
      expectCode((await call(bad)).error, 'invalid_opening_hours');
    }
    const dates = Array.from({ length: LIMITS.closedDates + 1 }, (_, i) =>
      new Date(Date.UTC(2027, 0, 1) + i * DAY_MS).toISOString().slice(0, 10),
    );
    expect((await call(week, dates.slice(0, LIMITS.closedDates))).error).toBeNull();
    expectCode((await call(week, dates)).error, 'too_many_closed_dates');
    expectCode((await call(week, [], randomUUID())).error, 'location_not_found');
  });

  it('is refused to anon, customers and staff without their second factor', async () => {
    const args = { location_id: SEED.locations.alg, opening_hours: week, closed_dates: [] };
    expectDenied((await visitor().rpc('staff_set_opening_hours', args)).error);
    const customer = await newCustomer();
    expectCode((await customer.client.rpc('staff_set_opening_hours', args)).error, 'not_allowed');
    const aal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    expectCode((await aal1.rpc('staff_set_opening_hours', args)).error, 'not_allowed');
    // Nor may they write the columns directly (RLS: admins at aal2 only).
    const direct = await customer.client
      .from('locations')
      .update({ closed_dates: ['2027-01-01'] })
      .eq('id', SEED.locations.alg)
      .select();
    expect(direct.data ?? []).toEqual([]);
    const still = await visitor()
      .from('locations')
      .select('opening_hours, closed_dates')
      .eq('id', SEED.locations.alg)
      .single();
    expect(still.data).toEqual({
      opening_hours: Array.from({ length: 7 }, () => [360, 1380]),
      closed_dates: [],
    });
  });

  it('admins write the hours only through the RPC; the table refuses a malformed week', async () => {
    const place = await placeWith(week, []);
    const direct = await admin.from('locations').update({ opening_hours: week }).eq('id', place.id);
    expect(direct.error?.code).toBe('42501');
    // Past the functions (the owner): the CHECK constraints still hold.
    await expect(
      sql(`update public.locations set opening_hours = '[[480,1140]]' where id = $1`, [place.id]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'locations_opening_hours_valid' });
    const tooMany = Array.from({ length: LIMITS.closedDates + 1 }, (_, i) =>
      new Date(Date.UTC(2027, 0, 1) + i * DAY_MS).toISOString().slice(0, 10),
    );
    await expect(
      sql('update public.locations set closed_dates = $2::date[] where id = $1', [
        place.id,
        tooMany,
      ]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'locations_closed_dates_bounded' });
  });
});
