/**
 * What a failed call means for the queue, classified the way PowerSync's Supabase connector
 * does: data and permission errors are parked for the user, authentication is refreshed,
 * everything else is retried.
 */

/** What a failed call means for the queue. */
export type Failure =
  | { kind: 'transient'; code: string }
  | { kind: 'auth'; code: string }
  | { kind: 'permanent'; code: string }
  /**
   * A server limit (docs/decisions.md): the entry waits until `retryAt` (ms; null: until the
   * agency answers a pending booking, tried again after `DEFERRED_RETRY_MS`), never dropped,
   * while the rest of the queue goes on.
   */
  | { kind: 'deferred'; code: string; retryAt: number | null };

/** The limits of public booking: the booking waits, it is not refused. */
export const limitCodes: ReadonlySet<string> = new Set([
  'too_many_pending_for_contact',
  'too_many_pending_for_account',
  'too_many_pending_from_address',
  'booking_rate_limited',
  'rate_limited',
]);

/** How long an entry waits on a limit that gives no time (`retry_after` null). */
export const DEFERRED_RETRY_MS = 5 * 60 * 1000;

/** The `retry_after` of a limit's `detail` (JSON), in ms; null when absent or unreadable. */
export function retryAfterOf(detail: string | null | undefined): number | null {
  if (!detail) return null;
  try {
    const value = (JSON.parse(detail) as { retry_after?: unknown }).retry_after;
    const at = typeof value === 'string' ? Date.parse(value) : NaN;
    return Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

/** The error shapes supabase-js returns: PostgREST `{code, message}` + status, storage `{statusCode}`. */
export type ApiError = {
  status?: number;
  code?: string;
  message?: string;
  statusCode?: string;
  details?: string | null;
};

const TRANSIENT_STATUSES = new Set([0, 408, 425, 429, 500, 502, 503, 504]);

/**
 * Classifies a failed call like PowerSync's Supabase connector: data and permission errors are
 * parked, authentication is refreshed, everything else is retried.
 */
export function classifyError(error: ApiError | null | undefined): Failure {
  const status = typeof error?.status === 'number' ? error.status : 0;
  const code = (error?.code ?? '').toString();
  const message = (error?.message ?? '').toString();
  if (code === 'P0001' && limitCodes.has(message)) {
    return { kind: 'deferred', code: message, retryAt: retryAfterOf(error?.details) };
  }
  if (code === 'P0001') return { kind: 'permanent', code: message || 'P0001' };
  if (/^2[23][0-9A-Z]{3}$/.test(code) || code === '42501') {
    return { kind: 'permanent', code: code === '42501' ? 'not_allowed' : code };
  }
  if (status === 401 || code === 'PGRST301' || code === 'PGRST303') {
    return { kind: 'auth', code: 'unauthorized' };
  }
  if (TRANSIENT_STATUSES.has(status)) {
    return { kind: 'transient', code: status === 0 ? 'network' : `http_${status}` };
  }
  const storageCode = Number(error?.statusCode);
  if (storageCode === 413 || status === 413) return { kind: 'permanent', code: 'file_too_large' };
  if (storageCode === 415 || status === 415 || /mime|file type/i.test(message)) {
    return { kind: 'permanent', code: 'unsupported_file_type' };
  }
  if (status === 403 || storageCode === 403) return { kind: 'permanent', code: 'not_allowed' };
  if (status >= 400 && status < 500) return { kind: 'permanent', code: `http_${status}` };
  return { kind: 'transient', code: status ? `http_${status}` : 'unknown' };
}

/** Storage's answer to an upload of a path that exists: the earlier attempt landed. */
export function isAlreadyExists(error: ApiError): boolean {
  return (
    error.statusCode === '409' ||
    error.status === 409 ||
    /already exists|duplicate/i.test(error.message ?? '')
  );
}

export type Outcome = { ok: true } | { ok: false; failure: Failure };

export function permanent(code: string): Outcome {
  return { ok: false, failure: { kind: 'permanent', code } };
}
