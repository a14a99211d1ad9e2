/**
 * The app's catalogue source (`postgrestCatalogueSource`: plain fetch, anon key) against the real
 * gateway and PostgREST: keyset paging that never skips or repeats a row, busy periods, settings,
 * reviews, and how failures are told apart (no answer = offline; an answer = a server error).
 */
import { describe, expect, it } from 'vitest';

import { isNetworkError } from '@/infra/network';
import type { KeysetCursor } from '@/sync/catalogue-requests';
import { postgrestCatalogueSource } from '@/sync/catalogue-source';

import { testStack } from '../support/clients.ts';
import { algiersAt, book, newCar, SEED, visitor } from '../support/fixtures.ts';

function source(overrides: { anonKey?: string; url?: string; fetch?: typeof fetch } = {}) {
  const stack = testStack();
  return postgrestCatalogueSource({
    url: overrides.url ?? stack.apiUrl,
    anonKey: overrides.anonKey ?? stack.anonKey,
    timeoutMs: 10_000,
    fetch: overrides.fetch,
  });
}

describe('postgrestCatalogueSource', () => {
  it('pages through every car exactly once, in (updated_at, id) order, rows sharing a timestamp included', async () => {
    const server = source();
    const seen: Array<{ id: string; updated_at: string }> = [];
    let cursor: KeysetCursor | null = null;
    for (let pages = 0; pages < 100; pages += 1) {
      const rows = (await server.changes('cars', cursor, 7)) as Array<{
        id: string;
        updated_at: string;
      }>;
      if (rows.length === 0) break;
      expect(rows.length).toBeLessThanOrEqual(7);
      seen.push(...rows);
      const last = rows[rows.length - 1]!;
      cursor = { updated_at: last.updated_at, key: last.id };
    }
    const { data, error } = await visitor().from('cars').select('id, updated_at');
    expect(error).toBeNull();
    const all = data as Array<{ id: string; updated_at: string }>;
    expect(seen.map((r) => r.id).sort()).toEqual(all.map((r) => r.id).sort());
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    // The seed writes many cars in one statement: the cursor had to step inside a timestamp.
    const timestamps = new Set(all.map((r) => r.updated_at));
    expect(timestamps.size).toBeLessThan(all.length);
    // Postgres keeps microseconds, Date.parse milliseconds: compare at the server's precision.
    const micros = (at: string) => {
      const fraction = /\.(\d+)/.exec(at)?.[1] ?? '';
      return (
        Date.parse(at.replace(/\.\d+/, '')) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6))
      );
    };
    for (let i = 1; i < seen.length; i += 1) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      const order = micros(a.updated_at) - micros(b.updated_at) || (a.id < b.id ? -1 : 1);
      expect(order, `${a.id} before ${b.id}`).toBeLessThan(0);
    }
  });

  it('reads retired cars too (a delta carries removals) and every synced table', async () => {
    const server = source();
    const cars = (await server.changes('cars', null, 500)) as Array<{
      id: string;
      active: boolean;
    }>;
    expect(cars.find((c) => c.id === SEED.cars.retiredClio4)?.active).toBe(false);
    const locations = (await server.changes('locations', null, 500)) as Array<{ id: string }>;
    expect(locations.map((l) => l.id)).toContain(SEED.locations.alg);
    const extras = (await server.changes('extras', null, 500)) as Array<{ code: string }>;
    expect(extras.length).toBeGreaterThanOrEqual(6);
    const insurance = (await server.changes('insurance', null, 500)) as Array<{
      included: boolean;
    }>;
    expect(insurance.some((option) => option.included)).toBe(true);
  });

  it('lists busy periods (as instants) and reads the settings row', async () => {
    const car = (await newCar()).id;
    const booking = await book(visitor(), car, {
      start_at: algiersAt(30, 10),
      end_at: algiersAt(33, 18),
    });
    const server = source();
    const busy = await server.busyPeriods(algiersAt(29), algiersAt(40));
    const mine = busy
      .filter((row) => row.car_id === car)
      .map((row) => ({ start: Date.parse(row.start_at), end: Date.parse(row.end_at) }));
    expect(mine).toEqual([
      { start: Date.parse(booking.start_at), end: Date.parse(booking.end_at) },
    ]);
    expect(Date.parse(booking.start_at)).toBe(Date.parse(algiersAt(30, 10)));
    expect(await server.busyPeriods(algiersAt(34), algiersAt(40))).not.toContainEqual(
      expect.objectContaining({ car_id: car }),
    );

    const settings = await server.settings();
    expect(settings).toMatchObject({ currency: 'DZD', time_zone: 'Africa/Algiers' });
    expect(settings?.driver_per_day_dzd).toBeGreaterThan(0);
  });

  it("reads a car's reviews newest first, without customer ids", async () => {
    const reviews = await source().reviews(SEED.cars.clio5, 20);
    expect(reviews.map((r) => r.author_name).sort()).toEqual(['Amina L.', 'Karim B.']);
    const times = reviews.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(reviews[0]).not.toHaveProperty('customer_id');
    expect(await source().reviews(SEED.cars.clio5, 1)).toHaveLength(1);
  });

  it('sends only CORS-simple requests (GET, the key in the URL), which the gateway accepts', async () => {
    const sent: Array<{ url: string; method: string; headers: string[] }> = [];
    const recording: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      sent.push({
        url: String(input),
        method: init?.method ?? 'GET',
        headers: [...headers.keys()],
      });
      return fetch(input, init);
    };
    const server = source({ fetch: recording });
    await server.changes('cars', null, 2);
    await server.busyPeriods(algiersAt(1), algiersAt(40));
    await server.settings();
    await server.reviews(SEED.cars.clio5, 1);
    expect(sent).toHaveLength(4);
    for (const request of sent) {
      expect(request.method).toBe('GET');
      expect(request.headers).toEqual(['accept']);
      expect(new URL(request.url).searchParams.get('apikey')).toBe(testStack().anonKey);
    }
    // A browser preflights nothing else: the gateway answers the simple request's CORS itself.
    const response = await fetch(sent[0]!.url, { headers: { origin: 'http://localhost:5173' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('tells a refusal from the server (an answer) from no answer at all (offline)', async () => {
    const refused = await source({ anonKey: 'not-a-key' })
      .changes('cars', null, 1)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('cars: Invalid API key');
    expect(isNetworkError(refused)).toBe(false);

    // A port nothing listens on: connection refused, as with no network.
    const offline = await source({ url: 'http://127.0.0.1:9' })
      .settings()
      .catch((error: unknown) => error);
    expect(isNetworkError(offline)).toBe(true);
    expect((offline as Error).message).toMatch(/^settings: /);
  });
});
