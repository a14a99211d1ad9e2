import type { Car, Extra, InsuranceOption, Location } from '@/lib/database.types';
import { db as defaultDb, type BusyPeriod, type KiraaDb } from '@/sync/db';

/**
 * The catalogue sync: fills Dexie from the server; the UI reads only Dexie.
 *
 * - cars, locations, extras and insurance options come as a delta on `updated_at` with a keyset
 *   cursor `(updated_at, key)` kept per table in `meta`, so rows sharing a timestamp are never
 *   skipped. Each page is written with its cursor in one transaction: an interrupted sync resumes
 *   where it stopped. Rows are retired with `active = false`, never deleted, so a delta carries
 *   removals; the UI hides inactive rows.
 * - busy periods (`car_busy_periods`) are refetched whole for the coming year on each sync and
 *   replace the table in one transaction.
 * - never two syncs at once (in this tab: callers share the running sync; across tabs: a Web
 *   Lock); a failure keeps the cached data and is recorded in `meta` for the UI.
 *
 * The server side is a small injected `CatalogueSource`, so tests can drive the sync against a
 * fake server while the app uses PostgREST through supabase-js.
 */

export type CatalogueTable = 'cars' | 'locations' | 'extras' | 'insurance';

export type CatalogueRow = {
  cars: Car;
  locations: Location;
  extras: Extra;
  insurance: InsuranceOption;
};

/** The primary key of each synced table, second half of the keyset cursor. */
export const catalogueKeys = {
  cars: 'id',
  locations: 'id',
  extras: 'code',
  insurance: 'code',
} as const satisfies Record<CatalogueTable, string>;

export const catalogueTables = Object.keys(catalogueKeys) as CatalogueTable[];

/** Position after the last row received: `updated_at` exactly as the server wrote it. */
export type KeysetCursor = { updated_at: string; key: string };

export type BusyRow = { car_id: string; start_at: string; end_at: string };

export interface CatalogueSource {
  /**
   * At most `limit` rows of `table` ordered by (updated_at, key) ascending and strictly after
   * `after` in that order (all rows when `after` is null), retired ones included.
   */
  changes<T extends CatalogueTable>(
    table: T,
    after: KeysetCursor | null,
    limit: number,
  ): Promise<CatalogueRow[T][]>;
  /** Periods during which cars are taken, overlapping [from, to). */
  busyPeriods(fromIso: string, toIso: string): Promise<BusyRow[]>;
}

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
export const cursorKey = (table: CatalogueTable) => `catalogue.cursor.${table}`;

export const PAGE_SIZE = 500;
const BUSY_WINDOW_MS = 366 * 24 * 60 * 60 * 1000;
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
};

export type CatalogueSync = {
  /** Runs a sync, or joins the one already running. Never throws. */
  sync(): Promise<SyncOutcome>;
  /** Whether a sync is running in this tab. */
  running(): boolean;
};

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
}

export function createCatalogueSync(options: CatalogueSyncOptions): CatalogueSync {
  const db = options.db ?? defaultDb;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const now = options.now ?? (() => new Date());
  let source: CatalogueSource | null = typeof options.source === 'function' ? null : options.source;
  let current: Promise<SyncOutcome> | null = null;

  async function getSource(): Promise<CatalogueSource> {
    if (!source) source = await (options.source as () => Promise<CatalogueSource>)();
    return source;
  }

  async function readStatus(): Promise<CatalogueSyncStatus> {
    const row = await db.meta.get(STATUS_KEY);
    return { ...idleStatus, ...(row?.value as Partial<CatalogueSyncStatus> | undefined) };
  }

  async function writeStatus(patch: Partial<CatalogueSyncStatus>): Promise<void> {
    await db.transaction('rw', db.meta, async () => {
      const status = await readStatus();
      await db.meta.put({ key: STATUS_KEY, value: { ...status, ...patch } });
    });
  }

  async function pullTable(server: CatalogueSource, table: CatalogueTable): Promise<number> {
    const key = catalogueKeys[table];
    const store = db.table(table);
    let cursor = ((await db.meta.get(cursorKey(table)))?.value as KeysetCursor | undefined) ?? null;
    let received = 0;
    for (;;) {
      const rows = (await server.changes(table, cursor, pageSize)) as unknown as Array<
        Record<string, unknown>
      >;
      if (rows.length === 0) break;
      const last = rows[rows.length - 1]!;
      const next: KeysetCursor = { updated_at: String(last.updated_at), key: String(last[key]) };
      await db.transaction('rw', store, db.meta, async () => {
        await store.bulkPut(rows);
        await db.meta.put({ key: cursorKey(table), value: next });
      });
      received += rows.length;
      cursor = next;
      if (rows.length < pageSize) break;
    }
    return received;
  }

  async function pullBusy(server: CatalogueSource): Promise<number> {
    const from = now();
    const to = new Date(from.getTime() + BUSY_WINDOW_MS);
    const rows = await server.busyPeriods(from.toISOString(), to.toISOString());
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

  async function run(): Promise<SyncOutcome> {
    await writeStatus({ state: 'syncing', last_attempt_at: now().toISOString() });
    try {
      const server = await getSource();
      const changed = { cars: 0, locations: 0, extras: 0, insurance: 0 };
      for (const table of catalogueTables) changed[table] = await pullTable(server, table);
      const busy = await pullBusy(server);
      await writeStatus({
        state: 'idle',
        last_success_at: now().toISOString(),
        last_error: null,
      });
      return { ok: true, changed, busy };
    } catch (error) {
      const message = describe(error);
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
  };
}

/** Reads the catalogue's sync status (for tests and non-React callers). */
export async function readCatalogueStatus(db: KiraaDb = defaultDb): Promise<CatalogueSyncStatus> {
  const row = await db.meta.get(STATUS_KEY);
  return { ...idleStatus, ...(row?.value as Partial<CatalogueSyncStatus> | undefined) };
}
