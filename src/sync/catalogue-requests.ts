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

/** The headers of every catalogue request: the public key, as supabase-js would send it. */
export function catalogueHeaders(anonKey: string): Record<string, string> {
  return { apikey: anonKey, authorization: `Bearer ${anonKey}`, accept: 'application/json' };
}
