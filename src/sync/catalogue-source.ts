import type { Car, Extra, InsuranceOption, Location, Settings } from '@/domain/rows';
import { REQUEST_TIMEOUT_MS } from '@/infra/api-settings';
import {
  busyPath,
  CATALOGUE_HEADERS,
  catalogueUrl,
  changesPath,
  serverTables,
  SETTINGS_PATH,
  type CatalogueTable,
  type KeysetCursor,
} from '@/sync/catalogue-requests';

/**
 * Where the catalogue sync (src/sync/catalogue-sync.ts) reads from: the `CatalogueSource`
 * interface (tests drive the sync with a fake one) and the app's, PostgREST with plain `fetch`.
 */

export type CatalogueRow = {
  cars: Car;
  locations: Location;
  extras: Extra;
  insurance: InsuranceOption;
};

export type BusyRow = { car_id: string; start_at: string; end_at: string };

/** A review as car pages show it (the `car_reviews` view: no customer id, "Karim B."). */
export type CarReview = {
  id: string;
  car_id: string;
  rating: number;
  comment: string | null;
  created_at: string;
  author_name: string;
};

export type CachedReviews = { fetched_at: string; reviews: CarReview[] };

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
  /** Periods during which cars are taken, overlapping [from, to) (ISO 8601 instants). */
  busyPeriods(fromIso: string, toIso: string): Promise<BusyRow[]>;
  /** The settings row (prices the device needs offline), or null when there is none. */
  settings(): Promise<Settings | null>;
  /** A car's latest public reviews, newest first. */
  reviews(carId: string, limit: number): Promise<CarReview[]>;
}

/** The server could not be reached (no HTTP answer): the device is offline, whatever it says. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
}

/** `["2027-01-01 10:00:00+00","2027-01-03 10:00:00+00")` → its bounds as ISO 8601. */
export function parseTstzRange(range: string): { start_at: string; end_at: string } | null {
  const match = /^[[(]"?([^",]+)"?,"?([^",]+)"?[\])]$/.exec(range.trim());
  if (!match) return null;
  const iso = (value: string) => {
    const normalized = value
      .trim()
      .replace(' ', 'T')
      .replace(/([+-]\d{2})$/, '$1:00');
    const time = Date.parse(normalized);
    return Number.isNaN(time) ? null : new Date(time).toISOString();
  };
  const start = iso(match[1]!);
  const end = iso(match[2]!);
  return start && end ? { start_at: start, end_at: end } : null;
}

type RawBusyRow = { car_id: string; start_at?: string; end_at?: string; period?: string };

/** Catalogue reads answered with something else than data (status, PostgREST's message). */
class ApiError extends Error {
  override name = 'ApiError';
}

export type PostgrestSourceOptions = {
  /** The project's URL (`https://<ref>.supabase.co`, or the local stack's gateway). */
  url: string;
  /** The public (anon) key: the catalogue is public, whoever is signed in. */
  anonKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /**
   * The answer to this URL that was requested before the app started (index.html's
   * first-visit prefetch, catalogue-prefetch.ts), taken once; undefined when there is none, and
   * null when that request failed (the source then asks again).
   */
  prefetched?: (url: string) => Promise<Response | null> | undefined;
};

/**
 * The catalogue on PostgREST with plain `fetch` and the anon key. Not supabase-js: the
 * catalogue's first download is on the path of the first screen (/cars on a first visit), and
 * the client library (≈50 KB gzip) would be one more download before it. Every request is a
 * GET without custom headers (catalogueUrl: no CORS preflight), so the first visit's prefetch
 * can start each of them before the app's code arrives.
 */
export function postgrestCatalogueSource(options: PostgrestSourceOptions): CatalogueSource {
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function answer(url: string): Promise<Response> {
    // A prefetch that failed, or that the server refused, is asked again.
    const early = options.prefetched?.(url);
    const prefetched = early ? await early : null;
    if (prefetched?.ok) return prefetched;
    return send(url, { headers: CATALOGUE_HEADERS, signal: AbortSignal.timeout(timeoutMs) });
  }

  async function request<T>(what: string, path: string): Promise<T> {
    let response: Response;
    try {
      response = await answer(catalogueUrl(options.url, options.anonKey, path));
    } catch (error) {
      // No answer at all (offline, DNS, CORS, timeout): the device is offline for the sync.
      throw new NetworkError(`${what}: ${describe(error)}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (response.ok) throw new NetworkError(`${what}: ${describe(error)}`);
      body = null;
    }
    if (!response.ok) {
      const message = (body as { message?: unknown } | null)?.message;
      throw new ApiError(
        `${what}: ${typeof message === 'string' ? message : `HTTP ${response.status}`}`,
      );
    }
    return body as T;
  }

  return {
    changes(table, after, limit) {
      return request(serverTables[table], changesPath(table, after, limit));
    },
    async busyPeriods(from, to) {
      const rows = await request<RawBusyRow[] | null>('car_busy_periods', busyPath({ from, to }));
      return (rows ?? []).flatMap((row) => {
        const bounds =
          row.start_at && row.end_at
            ? { start_at: row.start_at, end_at: row.end_at }
            : row.period
              ? parseTstzRange(row.period)
              : null;
        return bounds ? [{ car_id: row.car_id, ...bounds }] : [];
      });
    },
    async settings() {
      const rows = await request<Settings[]>('settings', SETTINGS_PATH);
      return rows[0] ?? null;
    },
    reviews(carId, limit) {
      const params = new URLSearchParams({
        select: 'id,car_id,rating,comment,created_at,author_name',
        car_id: `eq.${carId}`,
        order: 'created_at.desc',
        limit: String(limit),
      });
      return request('car_reviews', `car_reviews?${params}`);
    },
  };
}
