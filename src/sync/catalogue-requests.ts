/**
 * The catalogue's PostgREST requests, built in one place: the sync (catalogue-sync.ts) sends
 * them, and index.html's first-visit prefetch (catalogue-prefetch.ts) starts the same ones before
 * the app's code has loaded, so the two must agree to the byte. No browser or app imports here:
 * vite.config.ts uses this module at build time.
 */

export type CatalogueTable = 'cars' | 'locations' | 'extras' | 'insurance';

/** The primary key of each synced table, second half of the keyset cursor. */
export const catalogueKeys = {
  cars: 'id',
  locations: 'id',
  extras: 'code',
  insurance: 'code',
} as const satisfies Record<CatalogueTable, string>;

export const catalogueTables = Object.keys(catalogueKeys) as CatalogueTable[];

/** Server tables (or views) behind the local tables. */
export const serverTables = {
  cars: 'cars',
  locations: 'locations',
  extras: 'extras',
  insurance: 'insurance_options',
} as const satisfies Record<CatalogueTable, string>;

/** The PostgREST root of a project (`https://<ref>.supabase.co` → `…/rest/v1`). */
export function restBase(apiUrl: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/rest/v1`;
}

/** Rows per request of a table's delta. */
export const CATALOGUE_PAGE_SIZE = 500;

/**
 * Rows of a table's very first request (no cursor yet), when smaller than a page: a first visit
 * shows the first cars after one screenful's download, however large the fleet; the rest follows
 * in pages of CATALOGUE_PAGE_SIZE (docs/catalogue.md).
 */
export const CATALOGUE_FIRST_PAGE_SIZE: Partial<Record<CatalogueTable, number>> = { cars: 24 };

/** Rows to ask for after `after` (null: the table's first request). */
export function pageLimit(table: CatalogueTable, after: unknown, pageSize: number): number {
  const first = CATALOGUE_FIRST_PAGE_SIZE[table];
  return after === null && first !== undefined ? Math.min(first, pageSize) : pageSize;
}

/** Position after the last row received: `updated_at` exactly as the server wrote it. */
export type KeysetCursor = { updated_at: string; key: string };

/** A value inside a PostgREST logic tree (`or=(…)`), quoted: timestamps hold `:`, `.` and `+`. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The path (under /rest/v1) of at most `limit` rows of `table` ordered by (updated_at, key) and
 * strictly after `after` in that order (all rows when `after` is null).
 */
export function changesPath(
  table: CatalogueTable,
  after: KeysetCursor | null,
  limit: number,
): string {
  const key = catalogueKeys[table];
  const params = new URLSearchParams({
    select: '*',
    order: `updated_at.asc,${key}.asc`,
    limit: String(limit),
  });
  if (after) {
    const at = quoted(after.updated_at);
    params.set(
      'or',
      `(updated_at.gt.${at},and(updated_at.eq.${at},${key}.gt.${quoted(after.key)}))`,
    );
  }
  return `${serverTables[table]}?${params}`;
}

/**
 * The catalogue is public: its requests carry the public (anon) key in the URL and no other
 * header than Accept, which makes them "simple" cross-origin requests. The browser sends them
 * at once instead of asking the API's permission first (a CORS preflight: one more round trip
 * before each new URL, and a delta's URL is always new). The gateway takes the key from the
 * query as from the header (Supabase's does; so does supabase/local/gateway/gateway.ts).
 */
export function catalogueUrl(apiUrl: string, anonKey: string, path: string): string {
  return `${restBase(apiUrl)}/${path}${path.includes('?') ? '&' : '?'}${apiKeyParam(anonKey)}`;
}

/** The public key as a query parameter (last in every catalogue URL). */
export function apiKeyParam(anonKey: string): string {
  return `apikey=${encodeURIComponent(anonKey)}`;
}

/** The only header of a catalogue request (a CORS-safelisted one). */
export const CATALOGUE_HEADERS = { accept: 'application/json' } as const;

/** Busy periods are kept for the coming year. */
export const BUSY_WINDOW_MS = 366 * 24 * 60 * 60 * 1000;
/** The busy window starts on the hour: requests within an hour are the same URL. */
export const BUSY_STEP_MS = 60 * 60 * 1000;

/** The busy-period window the sync asks for at `now`, as ISO 8601 instants. */
export function busyWindow(now: Date): { from: string; to: string } {
  const from = Math.floor(now.getTime() / BUSY_STEP_MS) * BUSY_STEP_MS;
  return {
    from: new Date(from).toISOString(),
    to: new Date(from + BUSY_WINDOW_MS).toISOString(),
  };
}

/** `car_busy_periods`: a stable function, so PostgREST answers a GET. */
export const BUSY_RPC = 'rpc/car_busy_periods';

/** The busy periods over a window (busyWindow). */
export function busyPath(window: { from: string; to: string }): string {
  return `${BUSY_RPC}?${new URLSearchParams(window)}`;
}

/** The settings row, only the fields the device needs offline. */
export const SETTINGS_PATH = `settings?${new URLSearchParams({
  select: 'driver_per_day_dzd,min_age,currency,time_zone,booking_horizon_days',
  limit: '1',
})}`;
