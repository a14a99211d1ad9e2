/**
 * What a failed call means for the queue, classified the way PowerSync's Supabase connector
 * does: data and permission errors are parked for the user, authentication is refreshed,
 * everything else is retried.
 */

/** What a failed call means for the queue. */
export type Failure =
  | { kind: 'transient'; code: string }
  | { kind: 'auth'; code: string }
  | { kind: 'permanent'; code: string };

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
