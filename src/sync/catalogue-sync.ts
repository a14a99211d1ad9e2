import type { BusyPeriod } from '@/domain/availability';
import { pictureUrl } from '@/domain/car-pictures';
import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/infra/api-config';
import { db as defaultDb, type KiraaDb } from '@/infra/db';
import { isNetworkError, reportServerReachable } from '@/infra/network';
import { markCatalogueSynced, takePrefetched } from '@/sync/catalogue-prefetch';
import {
  type CachedReviews,
  type CatalogueSource,
  describe,
  postgrestCatalogueSource,
} from '@/sync/catalogue-source';
import {
  busyWindow,
  CATALOGUE_PAGE_SIZE,
  pageLimit,
  catalogueKeys,
  catalogueTables,
  type CatalogueTable,
  type KeysetCursor,
} from '@/sync/catalogue-requests';

/**
 * The catalogue sync: fills Dexie from the server; the UI reads only Dexie.
 *
 * - cars, locations, extras and insurance options come as a delta on `updated_at` with a keyset
 *   cursor `(updated_at, key)` kept per table in `meta`, so rows sharing a timestamp are never
 *   skipped. Each page is written with its cursor in one transaction: an interrupted sync resumes
 *   where it stopped. Rows are retired with `active = false`, never deleted, so a delta carries
 *   removals; the UI hides inactive rows.
 * - busy periods (`car_busy_periods`) are refetched whole for the coming year on each sync and
 *   replace the table in one transaction; the settings row (driver price…) is refetched whole
 *   into `meta` (`catalogue.settings`).
 * - a car's public reviews are fetched when its page is open online, and cached in `meta`.
 * - never two syncs at once (in this tab: callers share the running sync; across tabs: a Web
 *   Lock); a failure keeps the cached data and is recorded in `meta` for the UI.
 *
 * The server side is a small injected `CatalogueSource`, so tests can drive the sync against a
 * fake server while the app reads PostgREST with plain `fetch` (`postgrestCatalogueSource`).
 */

export type CatalogueSyncState = 'idle' | 'syncing' | 'error';

/** What the UI shows about the catalogue's freshness (`meta` key `catalogue.status`). */
export type CatalogueSyncStatus = {
  state: CatalogueSyncState;
  /** Device time (ISO) at which the last complete sync ended. */
  last_success_at: string | null;
  last_attempt_at: string | null;
  /** Why the last attempt failed (null after a success). */
  last_error: string | null;
};

export type SyncOutcome =
  | { ok: true; changed: Record<CatalogueTable, number>; busy: number }
  | { ok: false; error: string }
  | { ok: false; skipped: 'locked' };

export const STATUS_KEY = 'catalogue.status';
export const SETTINGS_KEY = 'catalogue.settings';
export const cursorKey = (table: CatalogueTable) => `catalogue.cursor.${table}`;
export const reviewsKey = (carId: string) => `catalogue.reviews.${carId}`;

const LOCK_NAME = 'kiraa-catalogue-sync';

export const idleStatus: CatalogueSyncStatus = {
  state: 'idle',
  last_success_at: null,
  last_attempt_at: null,
  last_error: null,
};

export type CatalogueSyncOptions = {
  db?: KiraaDb;
  source: CatalogueSource | (() => Promise<CatalogueSource>);
  pageSize?: number;
  now?: () => Date;
  /** Use the Web Locks API (when the browser has it) so two tabs never sync at once. */
  crossTabLock?: boolean;
  /** Called after each sync that completed. */
  onSynced?: () => void;
};

export type CatalogueSync = {
  /** Runs a sync, or joins the one already running. Never throws. */
  sync(): Promise<SyncOutcome>;
  /** Whether a sync is running in this tab. */
  running(): boolean;
  /**
   * Fetches a car's latest reviews into `meta` (`catalogue.reviews.<car id>`). Returns false when
   * the server could not be reached; the cached reviews stay as they were.
   */
  refreshReviews(carId: string): Promise<boolean>;
};

const REVIEWS_LIMIT = 20;

/** Pictures uploaded to the `cars` bucket are stored without a host: the device keeps the URL. */
function withPictureUrls(row: Record<string, unknown>): Record<string, unknown> {
  const images = row.images;
  if (!Array.isArray(images)) return row;
  return { ...row, images: images.map((src) => pictureUrl(String(src), SUPABASE_URL)) };
}

export function createCatalogueSync(options: CatalogueSyncOptions): CatalogueSync {
  const db = options.db ?? defaultDb;
  const pageSize = options.pageSize ?? CATALOGUE_PAGE_SIZE;
  const now = options.now ?? (() => new Date());
  let source: CatalogueSource | null = typeof options.source === 'function' ? null : options.source;
  let current: Promise<SyncOutcome> | null = null;

  async function getSource(): Promise<CatalogueSource> {
    if (!source) source = await (options.source as () => Promise<CatalogueSource>)();
    return source;
  }

  async function writeStatus(patch: Partial<CatalogueSyncStatus>): Promise<void> {
    await db.transaction('rw', db.meta, async () => {
      const status = await readCatalogueStatus(db);
      await db.meta.put({ key: STATUS_KEY, value: { ...status, ...patch } });
    });
  }

  async function pullTable(server: CatalogueSource, table: CatalogueTable): Promise<number> {
    const key = catalogueKeys[table];
    const store = db.table(table);
    let cursor = ((await db.meta.get(cursorKey(table)))?.value as KeysetCursor | undefined) ?? null;
    let received = 0;
    for (;;) {
      const limit = pageLimit(table, cursor, pageSize);
      const page = (await server.changes(table, cursor, limit)) as unknown as Array<
        Record<string, unknown>
      >;
      const rows = table === 'cars' ? page.map(withPictureUrls) : page;
      if (rows.length === 0) break;
      const last = rows[rows.length - 1]!;
      const next: KeysetCursor = { updated_at: String(last.updated_at), key: String(last[key]) };
      await db.transaction('rw', store, db.meta, async () => {
        await store.bulkPut(rows);
        await db.meta.put({ key: cursorKey(table), value: next });
      });
      received += rows.length;
      cursor = next;
      if (rows.length < limit) break;
    }
    return received;
  }

  async function pullBusy(server: CatalogueSource): Promise<number> {
    const { from, to } = busyWindow(now());
    const rows = await server.busyPeriods(from, to);
    const periods: BusyPeriod[] = rows.map((row) => ({
      key: `${row.car_id}|${row.start_at}`,
      car_id: row.car_id,
      start_at: row.start_at,
      end_at: row.end_at,
    }));
    await db.transaction('rw', db.busy, async () => {
      await db.busy.clear();
      await db.busy.bulkPut(periods);
    });
    return periods.length;
  }

  async function pullSettings(server: CatalogueSource): Promise<number> {
    const settings = await server.settings();
    if (settings) await db.meta.put({ key: SETTINGS_KEY, value: settings });
    return settings ? 1 : 0;
  }

  async function run(): Promise<SyncOutcome> {
    await writeStatus({ state: 'syncing', last_attempt_at: now().toISOString() });
    try {
      const server = await getSource();
      // The tables are independent: fetched side by side, each page stored with its cursor.
      // All of them settle before the sync ends, so a next sync never overlaps this one.
      const results = await Promise.allSettled([
        ...catalogueTables.map((table) => pullTable(server, table)),
        pullBusy(server),
        pullSettings(server),
      ]);
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
      const counts = results.map((r) => (r as PromiseFulfilledResult<number>).value);
      const changed = Object.fromEntries(
        catalogueTables.map((table, i) => [table, counts[i]!]),
      ) as Record<CatalogueTable, number>;
      const busy = counts[catalogueTables.length]!;
      await writeStatus({
        state: 'idle',
        last_success_at: now().toISOString(),
        last_error: null,
      });
      reportServerReachable(true);
      options.onSynced?.();
      return { ok: true, changed, busy };
    } catch (error) {
      const message = describe(error);
      if (isNetworkError(error)) reportServerReachable(false);
      console.warn('[catalogue-sync] failed, keeping the cached catalogue:', message);
      await writeStatus({ state: 'error', last_error: message }).catch(() => undefined);
      return { ok: false, error: message };
    }
  }

  async function runLocked(): Promise<SyncOutcome> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (!options.crossTabLock || !locks) return run();
    // Another tab already syncs into the same IndexedDB: its writes reach this tab's live
    // queries, so there is nothing to do here.
    return locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) =>
      lock ? run() : ({ ok: false, skipped: 'locked' } as const),
    );
  }

  return {
    sync() {
      current ??= runLocked().finally(() => {
        current = null;
      });
      return current;
    },
    running: () => current !== null,
    async refreshReviews(carId) {
      try {
        const reviews = await (await getSource()).reviews(carId, REVIEWS_LIMIT);
        const value: CachedReviews = { fetched_at: now().toISOString(), reviews };
        await db.meta.put({ key: reviewsKey(carId), value });
        return true;
      } catch (error) {
        if (isNetworkError(error)) reportServerReachable(false);
        console.warn('[catalogue-sync] reviews not refreshed:', describe(error));
        return false;
      }
    },
  };
}

/** Reads the catalogue's sync status (for tests and non-React callers). */
export async function readCatalogueStatus(db: KiraaDb = defaultDb): Promise<CatalogueSyncStatus> {
  const row = await db.meta.get(STATUS_KEY);
  return { ...idleStatus, ...(row?.value as Partial<CatalogueSyncStatus> | undefined) };
}

/** The app's catalogue sync, against the project the app was built for. */
export const catalogueSync: CatalogueSync = createCatalogueSync({
  source: postgrestCatalogueSource({
    url: SUPABASE_URL,
    anonKey: SUPABASE_ANON_KEY,
    prefetched: takePrefetched,
  }),
  crossTabLock: true,
  onSynced: markCatalogueSynced,
});
