import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { and, assign, fromPromise, setup } from 'xstate';

/** docs/product.md §9: the session is checked at start and then every 60 s… */
export const SESSION_CHECK_INTERVAL_MS = 60_000;
/** …and refreshed when its expiry is missing or less than 300 s away. */
export const SESSION_REFRESH_THRESHOLD_S = 300;
/** After a refresh that got no answer, the next check comes sooner: 5 s, 10 s, 20 s, 40 s, 60 s… */
const SESSION_RETRY_FIRST_MS = 5_000;

/** When to check again after `failures` refreshes in a row got no answer. */
function nextCheckDelay(failures: number): number {
  if (failures <= 0) return SESSION_CHECK_INTERVAL_MS;
  return Math.min(SESSION_CHECK_INTERVAL_MS, SESSION_RETRY_FIRST_MS * 2 ** (failures - 1));
}

/**
 * What a refresh attempt came to:
 * - refreshed: the server issued a new session;
 * - transient: no answer (offline, timeout, 5xx, another tab won the race): keep the session;
 * - refused: the server rejected the refresh token: the session is over.
 */
export type RefreshOutcome =
  { kind: 'refreshed'; session: Session } | { kind: 'transient' } | { kind: 'refused' };

export type SessionMachineContext = {
  session: Session | null;
  /** Refreshes in a row that got no answer (0 after a success). */
  failures: number;
};

export type SessionMachineEvent =
  /** supabase-js reported a session (signed in, token refreshed, user updated, recovery, other tab). */
  | { type: 'auth.session'; event: AuthChangeEvent; session: Session }
  /** supabase-js reported that the session is gone (here or in another tab). */
  | { type: 'auth.signedOut' }
  /** Check now (the device came back online, the page became visible). */
  | { type: 'session.check' }
  /** The API answered 401/419/440 to the user's token. */
  | { type: 'session.unauthorized' }
  /** The user signs out. */
  | { type: 'session.signOut' };

/** Seconds until the access token expires (negative when expired); null when unknown. */
export function secondsLeft(session: Session | null, nowMs: number): number | null {
  const expiresAt = session?.expires_at;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  return expiresAt - nowMs / 1000;
}

export function needsRefresh(session: Session | null, nowMs: number): boolean {
  const left = secondsLeft(session, nowMs);
  return left === null || left < SESSION_REFRESH_THRESHOLD_S;
}

/**
 * The session (docs/architecture.md): signed out / signed in / refreshing. It never signs out because
 * the device is offline — only on sign-out, on a refresh the server refused, or when supabase-js
 * reports the session gone. A refresh that got no answer is tried again after 5 s, then 10 s,
 * 20 s, 40 s and every 60 s (nextCheckDelay). Side effects are actors provided by
 * src/infra/session.ts (tests provide fakes): `loadSession` reads the stored session without
 * touching the network, `refreshSession` asks the server, `signOut` clears the session here and
 * on the server when reachable.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionMachineContext,
    events: {} as SessionMachineEvent,
  },
  actors: {
    loadSession: fromPromise<Session | null>(async () => null),
    refreshSession: fromPromise<RefreshOutcome, { session: Session | null }>(async () => ({
      kind: 'transient',
    })),
    signOut: fromPromise<void>(async () => undefined),
  },
  guards: {
    needsRefresh: ({ context }) => needsRefresh(context.session, Date.now()),
    isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  },
  actions: {
    storeSession: assign(({ event }) =>
      event.type === 'auth.session' ? { session: event.session, failures: 0 } : {},
    ),
    clearSession: assign({ session: null, failures: 0 }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
  },
  delays: {
    checkInterval: ({ context }) => nextCheckDelay(context.failures),
  },
}).createMachine({
  id: 'session',
  initial: 'loading',
  context: { session: null, failures: 0 },
  states: {
    loading: {
      invoke: {
        src: 'loadSession',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'signedIn',
            actions: assign({ session: ({ event }) => event.output }),
          },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
      on: {
        'auth.session': { target: 'signedIn', actions: 'storeSession' },
        'auth.signedOut': { target: 'signedOut' },
      },
    },
    signedOut: {
      entry: 'clearSession',
      on: {
        'auth.session': { target: 'signedIn', actions: 'storeSession' },
      },
    },
    signedIn: {
      initial: 'checking',
      on: {
        'auth.session': { actions: 'storeSession' },
        'auth.signedOut': { target: 'signedOut' },
        'session.signOut': { target: 'signingOut' },
        'session.unauthorized': { target: 'refreshing' },
      },
      states: {
        checking: {
          always: [
            { guard: and(['needsRefresh', 'isOnline']), target: '#session.refreshing' },
            { target: 'idle' },
          ],
        },
        idle: {
          after: { checkInterval: { target: 'checking' } },
          on: { 'session.check': { target: 'checking' } },
        },
      },
    },
    refreshing: {
      invoke: {
        src: 'refreshSession',
        input: ({ context }) => ({ session: context.session }),
        onDone: [
          { guard: ({ event }) => event.output.kind === 'refused', target: 'signingOut' },
          {
            guard: ({ event }) => event.output.kind === 'refreshed',
            target: 'signedIn.idle',
            actions: assign({
              session: ({ context, event }) =>
                event.output.kind === 'refreshed' ? event.output.session : context.session,
              failures: 0,
            }),
          },
          // No answer: keep the session and check again soon (nextCheckDelay).
          { target: 'signedIn.idle', actions: 'countFailure' },
        ],
        // An unexpected failure is not a refusal: keep the session and check again soon.
        onError: { target: 'signedIn.idle', actions: 'countFailure' },
      },
      on: {
        'auth.session': { actions: 'storeSession' },
        'auth.signedOut': { target: 'signedOut' },
        'session.signOut': { target: 'signingOut' },
      },
    },
    signingOut: {
      invoke: {
        src: 'signOut',
        onDone: { target: 'signedOut' },
        onError: { target: 'signedOut' },
      },
    },
  },
});
