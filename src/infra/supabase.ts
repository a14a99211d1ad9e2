import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/infra/api-config';
import { REQUEST_TIMEOUT_MS } from '@/infra/api-settings';
import { authStorage } from '@/infra/auth-storage';
import type { Database } from '@/infra/database.types';

/**
 * The supabase-js client of the app (and of the service worker). The session lives in IndexedDB
 * (src/infra/auth-storage.ts), not in cookies or localStorage, so the service worker can flush the
 * outbox with the user's token. The only other client is `guestClient()`, session-less, which
 * sends a guest's queued booking as a guest even when someone signed in since.
 */

/** Where supabase-js keeps the session (an IndexedDB `meta` row, and the BroadcastChannel name). */
export const AUTH_STORAGE_KEY = 'kiraa-auth';

/** Statuses that mean "your session has expired" (docs/product.md §8). */
export const SESSION_EXPIRED_STATUSES: readonly number[] = [401, 419, 440];

const isWindow = typeof window !== 'undefined' && typeof document !== 'undefined';

/**
 * What the auth redirect put in the URL hash when the page loaded (a password-recovery link
 * lands on /reset-password#access_token=…&type=recovery, or #error=…&error_description=… when the
 * link is expired). supabase-js consumes and clears the hash on start, so it is read first.
 */
export type AuthRedirect = {
  type: string | null;
  hasSession: boolean;
  errorCode: string | null;
  errorDescription: string | null;
};

export function parseAuthRedirect(hash: string): AuthRedirect | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const hasSession = params.has('access_token');
  const error = params.get('error_code') ?? params.get('error');
  if (!hasSession && !error) return null;
  return {
    type: params.get('type'),
    hasSession,
    errorCode: error,
    errorDescription: params.get('error_description'),
  };
}

export const initialAuthRedirect: AuthRedirect | null = isWindow
  ? parseAuthRedirect(window.location.hash)
  : null;

/**
 * Called when the API answers 401/419/440 to a request that carried the user's token. The session
 * (src/infra/session.ts) registers it: it refreshes the token and resolves with the new access
 * token, or with null when the session cannot be refreshed (and is then signed out).
 */
export type UnauthorizedHandler = () => Promise<string | null>;
let unauthorizedHandler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

function withTimeout(signal: AbortSignal | null | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  if (!signal) return timeout;
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : signal;
}

/**
 * fetch for supabase-js: a 60 s timeout, and for data and storage calls made with the user's
 * token, one retry with a fresh token after a session-expired status (docs/product.md §7: "the failed
 * request is retried with Authorization: Bearer <new access token>"). Auth calls are left alone:
 * supabase-js handles its own refresh errors.
 */
export function createSessionFetch(
  baseFetch: typeof fetch = (...args) => fetch(...args),
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const retryable = request.body === null ? null : request.clone();
    const response = await baseFetch(request, { signal: withTimeout(request.signal) });
    if (!SESSION_EXPIRED_STATUSES.includes(response.status)) return response;

    const url = request.url;
    const isUserCall =
      !url.startsWith(`${SUPABASE_URL}/auth/`) &&
      (request.headers.get('authorization') ?? '') !== `Bearer ${SUPABASE_ANON_KEY}`;
    if (!isUserCall || !unauthorizedHandler) return response;

    const token = await unauthorizedHandler();
    if (!token) return response;
    const retry = retryable ?? request;
    const headers = new Headers(retry.headers);
    headers.set('authorization', `Bearer ${token}`);
    return baseFetch(new Request(retry, { headers }), { signal: withTimeout(init?.signal) });
  };
}

/**
 * Makes the next refresh of `client` ask the server. After a failed refresh, supabase-js answers
 * every refresh of the same token for the next minute with that failure, without a request (a
 * guard against refresh storms). The session machine has its own schedule, one attempt at a time
 * and backing off, so a failure from while the device was offline must not hold back the refresh
 * once it is back. auth-js keeps that failure in a protected field; src/infra/session.test.ts
 * fails if an upgrade changes it.
 */
export function forgetFailedRefresh(client: SupabaseClient): void {
  const auth = client.auth as unknown as { lastRefreshFailure?: unknown };
  if ('lastRefreshFailure' in auth) auth.lastRefreshFailure = null;
}

export const supabase = createClient<Database>(SUPABASE_URL, SUPABASE_ANON_KEY, {
  auth: {
    storage: authStorage,
    storageKey: AUTH_STORAGE_KEY,
    persistSession: true,
    // Only the session machine (src/infra/session.ts) schedules refreshes, and only while online:
    // supabase-js's timer would also fail offline (see forgetFailedRefresh). A service worker
    // refreshes on demand only.
    autoRefreshToken: false,
    detectSessionInUrl: isWindow,
    // Mail links open in another browser (Safari beside the installed app): docs/decisions.md,
    // "Mail links stay implicit".
    flowType: 'implicit',
  },
  global: { fetch: createSessionFetch() },
});

/** The app's client, typed by the generated schema (src/infra/database.types.ts). */
export type AppClient = SupabaseClient<Database>;

let guest: AppClient | null = null;

/** A client that never has a session: every call goes with the anon key only. */
export function guestClient(): AppClient {
  guest ??= createClient<Database>(SUPABASE_URL, SUPABASE_ANON_KEY, {
    auth: {
      storageKey: `${AUTH_STORAGE_KEY}-guest`,
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    },
    global: { fetch: createSessionFetch() },
  });
  return guest;
}
