import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Car, Location, Settings } from '@/domain/rows';
import { SUPABASE_URL } from '@/infra/api-config';
import { KiraaDb } from '@/infra/db';
import { isOnline, reportServerReachable } from '@/infra/network';
import { catalogueKeys, type CatalogueTable, type KeysetCursor } from '@/sync/catalogue-requests';
import {
  type BusyRow,
  type CarReview,
  type CatalogueRow,
  type CatalogueSource,
} from '@/sync/catalogue-source';
import {
  createCatalogueSync,
  cursorKey,
  readCatalogueStatus,
  reviewsKey,
  SETTINGS_KEY,
} from '@/sync/catalogue-sync';

/**
 * A fake server with PostgREST's keyset semantics: rows ordered by (updated_at, key), strictly
 * after the cursor. It records every call so tests can check what the sync asked for.
 */
class FakeServer implements CatalogueSource {
  tables: { [T in CatalogueTable]: CatalogueRow[T][] } = {
    cars: [],
    locations: [],
    extras: [],
    insurance: [],
  };
  busy: BusyRow[] = [];
  calls: Array<{ table: CatalogueTable; after: KeysetCursor | null; limit: number }> = [];
  busyCalls: Array<{ from: string; to: string }> = [];
  /** Fail the nth call (1-based) for this table with a network error. */
  failOn: { table: CatalogueTable; nth: number } | null = null;
  failBusy = false;
  gate: Promise<void> | null = null;

  async changes<T extends CatalogueTable>(
    table: T,
    after: KeysetCursor | null,
    limit: number,
  ): Promise<CatalogueRow[T][]> {
    this.calls.push({ table, after, limit });
    if (this.gate) await this.gate;
    const nth = this.calls.filter((call) => call.table === table).length;
    if (this.failOn?.table === table && this.failOn.nth === nth) {
      throw new TypeError('Failed to fetch');
    }
    const key = catalogueKeys[table];
    const rows = (this.tables[table] as unknown as Array<Record<string, unknown>>).map((row) => ({
      row,
      at: String(row.updated_at),
      id: String(row[key]),
    }));
    rows.sort((a, b) => compare(a.at, b.at) || compare(a.id, b.id));
    return rows
      .filter(
        ({ at, id }) =>
          !after || at > after.updated_at || (at === after.updated_at && id > after.key),
      )
      .slice(0, limit)
      .map(({ row }) => row) as unknown as CatalogueRow[T][];
  }

  settingsRow: Settings | null = null;
  reviewRows: CarReview[] = [];
  failReviews = false;

  async settings() {
    return this.settingsRow;
  }

  async reviews(carId: string, limit: number) {
    if (this.failReviews) throw new TypeError('Failed to fetch');
    return this.reviewRows.filter((r) => r.car_id === carId).slice(0, limit);
  }

  async busyPeriods(from: string, to: string) {
    this.busyCalls.push({ from, to });
    if (this.failBusy) throw new Error('car_busy_periods: 503');
    return this.busy;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function car(id: string, updated_at: string, patch: Partial<Car> = {}): Car {
  return {
    id,
    slug: `car-${id}`,
    name: `Car ${id}`,
    make: 'Dacia',
    model: 'Logan',
    body: 'sedan',
    seats: 5,
    doors: 4,
    passengers: 5,
    fuel: 'diesel',
    year: 2022,
    transmission: 'manual',
    drive: 'fwd',
    engine: '1.5 dCi',
    mileage_km: 10_000,
    exterior_color: 'grey',
    interior_color: 'black',
    features: [],
    description: { fr: '', en: '', ar: '' },
    daily_rate_dzd: 4_000,
    deposit_dzd: 40_000,
    images: [],
    active: true,
    updated_at,
    ...patch,
  };
}

function location(id: string, updated_at: string): Location {
  return {
    id,
    kind: 'city',
    iata: null,
    name: { fr: id, en: id, ar: id },
    delivery_fee_dzd: 0,
    active: true,
    updated_at,
  };
}

const T1 = '2026-11-20T10:00:00.123456+00:00';
const T2 = '2026-11-21T10:00:00.000001+00:00';
const NOW = new Date('2026-11-22T12:00:00Z');

let db: KiraaDb;
let server: FakeServer;

beforeEach(async () => {
  db = new KiraaDb(`kiraa-test-${crypto.randomUUID()}`);
  await db.open();
  server = new FakeServer();
});

afterEach(async () => {
  await db.delete();
});

const makeSync = (pageSize = 2) =>
  createCatalogueSync({ db, source: server, pageSize, now: () => NOW });

describe('catalogue delta sync', () => {
  it('downloads every table page by page and keeps a keyset cursor per table', async () => {
    server.tables.cars = ['a', 'b', 'c', 'd', 'e'].map((id) => car(id, T1));
    server.tables.locations = [location('alg', T1)];
    const outcome = await makeSync().sync();

    expect(outcome).toEqual({
      ok: true,
      changed: { cars: 5, locations: 1, extras: 0, insurance: 0 },
      busy: 0,
    });
    expect((await db.cars.toArray()).map((c) => c.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect((await db.meta.get(cursorKey('cars')))?.value).toEqual({ updated_at: T1, key: 'e' });
    expect((await db.meta.get(cursorKey('locations')))?.value).toEqual({
      updated_at: T1,
      key: 'alg',
    });
    // Pages of 2: a,b | c,d | e (short page, so no further request).
    expect(server.calls.filter((c) => c.table === 'cars').map((c) => c.after)).toEqual([
      null,
      { updated_at: T1, key: 'b' },
      { updated_at: T1, key: 'd' },
    ]);
  });

  it('asks for a screenful of cars first, then full pages (first page first)', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `car-${String(i).padStart(2, '0')}`);
    server.tables.cars = ids.map((id) => car(id, T1));
    server.tables.locations = ['a', 'b', 'c'].map((id) => location(id, T1));
    const outcome = await makeSync(30).sync();

    expect(outcome).toMatchObject({ ok: true, changed: { cars: 60, locations: 3 } });
    expect(await db.cars.count()).toBe(60);
    // 24 first (one screenful), then pages of 30: 24 + 30 + 6.
    expect(
      server.calls.filter((c) => c.table === 'cars').map((c) => [c.after?.key ?? null, c.limit]),
    ).toEqual([
      [null, 24],
      ['car-23', 30],
      ['car-53', 30],
    ]);
    // Other tables start with a full page.
    expect(server.calls.find((c) => c.table === 'locations')?.limit).toBe(30);
  });

  it('never skips rows that share the cursor’s timestamp', async () => {
    server.tables.cars = [car('a', T1), car('b', T1)];
    const sync = makeSync();
    await sync.sync();
    // Written later in the same transaction as a and b (same now()), with a greater id, and one
    // with a smaller id: a plain `updated_at > cursor` delta would miss both.
    server.tables.cars.push(car('c', T1), car('0', T1));
    await sync.sync();
    // The smaller id sorts before the cursor: only a later change (new updated_at) brings it,
    // which is what the server's trigger guarantees for any real update.
    expect((await db.cars.toArray()).map((c) => c.id).sort()).toEqual(['a', 'b', 'c']);
    server.tables.cars = server.tables.cars.map((c) =>
      c.id === '0' ? { ...c, updated_at: T2 } : c,
    );
    await sync.sync();
    expect((await db.cars.toArray()).map((c) => c.id).sort()).toEqual(['0', 'a', 'b', 'c']);
  });

  it('asks only for what changed since the last sync', async () => {
    server.tables.cars = [car('a', T1), car('b', T1), car('c', T1)];
    const sync = makeSync(10);
    await sync.sync();
    server.calls = [];
    const outcome = await sync.sync();
    expect(outcome).toMatchObject({ ok: true, changed: { cars: 0 } });
    expect(server.calls.find((c) => c.table === 'cars')?.after).toEqual({
      updated_at: T1,
      key: 'c',
    });
  });

  it('applies updates and retirements from the delta, never deleting rows', async () => {
    server.tables.cars = [car('a', T1, { daily_rate_dzd: 4_000 }), car('b', T1)];
    const sync = makeSync();
    await sync.sync();
    server.tables.cars = [car('a', T2, { daily_rate_dzd: 4_500 }), car('b', T2, { active: false })];
    await sync.sync();
    expect((await db.cars.get('a'))?.daily_rate_dzd).toBe(4_500);
    expect(await db.cars.get('b')).toMatchObject({ id: 'b', active: false });
    expect(await db.cars.count()).toBe(2);
  });

  it('stores uploaded pictures with the API’s address in front, in their order', async () => {
    const uploaded = '/storage/v1/object/public/cars/a/cover.webp';
    server.tables.cars = [car('a', T1, { images: [uploaded, '/cars/car-a-1.svg'] })];
    await makeSync().sync();
    expect((await db.cars.get('a'))?.images).toEqual([
      `${SUPABASE_URL.replace(/\/+$/, '')}${uploaded}`,
      '/cars/car-a-1.svg',
    ]);
  });

  it('keeps what it has and resumes from the last stored page after a failure', async () => {
    server.tables.cars = ['a', 'b', 'c', 'd', 'e'].map((id) => car(id, T1));
    server.failOn = { table: 'cars', nth: 2 }; // the second page of cars
    const sync = makeSync();
    const failed = await sync.sync();

    expect(failed).toEqual({ ok: false, error: 'Failed to fetch' });
    expect((await db.cars.toArray()).map((c) => c.id)).toEqual(['a', 'b']);
    expect(await readCatalogueStatus(db)).toMatchObject({
      state: 'error',
      last_error: 'Failed to fetch',
      last_success_at: null,
      last_attempt_at: NOW.toISOString(),
    });

    server.failOn = null;
    server.calls = [];
    expect(await sync.sync()).toMatchObject({ ok: true, changed: { cars: 3 } });
    expect(server.calls.find((c) => c.table === 'cars')).toEqual({
      table: 'cars',
      after: { updated_at: T1, key: 'b' },
      limit: 2,
    });
    expect(await db.cars.count()).toBe(5);
    expect(await readCatalogueStatus(db)).toMatchObject({
      state: 'idle',
      last_error: null,
      last_success_at: NOW.toISOString(),
    });
  });

  it('tells the app when the server cannot be reached, and when it can again', async () => {
    server.tables.cars = [car('a', T1)];
    server.failOn = { table: 'cars', nth: 1 };
    const sync = makeSync();
    await sync.sync();
    expect(isOnline()).toBe(false);
    server.failOn = null;
    await sync.sync();
    expect(isOnline()).toBe(true);
  });

  it('does not call an answer from the server a network failure', async () => {
    reportServerReachable(true);
    server.failBusy = true; // an Error with an HTTP status, not a TypeError
    await makeSync().sync();
    expect(isOnline()).toBe(true);
  });

  it('replaces the busy periods whole, for the coming year from the start of the hour', async () => {
    server.busy = [
      { car_id: 'a', start_at: '2026-12-01T09:00:00+00:00', end_at: '2026-12-03T09:00:00+00:00' },
      { car_id: 'b', start_at: '2026-12-05T09:00:00+00:00', end_at: '2026-12-06T09:00:00+00:00' },
    ];
    const sync = createCatalogueSync({
      db,
      source: server,
      now: () => new Date('2026-11-22T12:34:56.789Z'),
    });
    expect(await sync.sync()).toMatchObject({ ok: true, busy: 2 });
    // The same URL all hour long: index.html's first-visit prefetch can start it.
    expect(server.busyCalls).toEqual([
      { from: '2026-11-22T12:00:00.000Z', to: '2027-11-23T12:00:00.000Z' },
    ]);

    // One booking was cancelled on the server, another made: the local table follows exactly.
    server.busy = [
      { car_id: 'c', start_at: '2027-01-01T09:00:00+00:00', end_at: '2027-01-02T09:00:00+00:00' },
    ];
    await sync.sync();
    expect(await db.busy.toArray()).toEqual([
      {
        key: 'c|2027-01-01T09:00:00+00:00',
        car_id: 'c',
        start_at: '2027-01-01T09:00:00+00:00',
        end_at: '2027-01-02T09:00:00+00:00',
      },
    ]);
  });

  it('keeps the previous busy periods when refetching them fails', async () => {
    server.busy = [
      { car_id: 'a', start_at: '2026-12-01T09:00:00+00:00', end_at: '2026-12-03T09:00:00+00:00' },
    ];
    const sync = makeSync();
    await sync.sync();
    server.failBusy = true;
    server.busy = [];
    expect(await sync.sync()).toEqual({ ok: false, error: 'car_busy_periods: 503' });
    expect(await db.busy.count()).toBe(1);
    expect((await readCatalogueStatus(db)).state).toBe('error');
  });

  it('never runs two syncs at once: a second call joins the running one', async () => {
    server.tables.cars = [car('a', T1)];
    let open!: () => void;
    server.gate = new Promise((resolve) => (open = resolve));
    const sync = makeSync();
    const first = sync.sync();
    const second = sync.sync();
    expect(second).toBe(first);
    expect(sync.running()).toBe(true);
    open();
    await first;
    expect(sync.running()).toBe(false);
    expect(server.calls.filter((c) => c.table === 'cars')).toHaveLength(1);
    // Once finished, the next call starts a new sync.
    server.gate = null;
    await sync.sync();
    expect(server.calls.filter((c) => c.table === 'cars')).toHaveLength(2);
  });

  it('creates the server source lazily, once', async () => {
    let created = 0;
    const sync = createCatalogueSync({
      db,
      source: async () => {
        created += 1;
        return server;
      },
    });
    await sync.sync();
    await sync.sync();
    expect(created).toBe(1);
  });

  it('reports a source that cannot be created as a failed sync', async () => {
    const sync = createCatalogueSync({
      db,
      source: () => Promise.reject(new Error('VITE_SUPABASE_URL is not set')),
    });
    expect(await sync.sync()).toEqual({ ok: false, error: 'VITE_SUPABASE_URL is not set' });
    expect((await readCatalogueStatus(db)).last_error).toBe('VITE_SUPABASE_URL is not set');
  });

  it('keeps the settings row the offline price needs', async () => {
    server.settingsRow = {
      driver_per_day_dzd: 3_000,
      min_age: 18,
      currency: 'DZD',
      time_zone: 'Africa/Algiers',
    };
    await makeSync().sync();
    expect((await db.meta.get(SETTINGS_KEY))?.value).toEqual(server.settingsRow);
  });

  it('caches a car’s reviews and keeps them when the server is unreachable', async () => {
    const review: CarReview = {
      id: 'r1',
      car_id: 'a',
      rating: 5,
      comment: 'Parfait',
      created_at: '2026-11-01T10:00:00+00:00',
      author_name: 'Karim B.',
    };
    server.reviewRows = [review, { ...review, id: 'r2', car_id: 'b' }];
    const sync = makeSync();
    expect(await sync.refreshReviews('a')).toBe(true);
    expect((await db.meta.get(reviewsKey('a')))?.value).toEqual({
      fetched_at: NOW.toISOString(),
      reviews: [review],
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.failReviews = true;
    expect(await sync.refreshReviews('a')).toBe(false);
    expect((await db.meta.get(reviewsKey('a')))?.value).toMatchObject({ reviews: [review] });
    warn.mockRestore();
  });
});
