import {
  isAuthApiError,
  isAuthRefreshDiscardedError,
  isAuthRetryableFetchError,
  isAuthSessionMissingError,
  type Session,
  type User,
} from '@supabase/supabase-js';
import { useSelector } from '@xstate/react';
import { createActor, fromPromise, waitFor, type Actor, type SnapshotFrom } from 'xstate';

import { authStorage } from '@/infra/auth-storage';
import { onForeground } from '@/infra/periodic';
import { type RefreshOutcome, sessionMachine } from '@/infra/session.machine';
import {
  AUTH_STORAGE_KEY,
  forgetFailedRefresh,
  initialAuthRedirect,
  setUnauthorizedHandler,
  supabase,
} from '@/infra/supabase';
import { db } from '@/infra/db';
import { onBackOnline } from '@/infra/network';

/**
 * The signed-in user as the app sees it: the seed's `sessionUser` fields, derived from the
 * supabase-js session kept in IndexedDB (docs/architecture.md).
 */
export type SessionUser = {
  id: string;
  userId: string;
  /** Picture URL from the user metadata, or '' (the UI then shows initials). */
  avatar: string;
  /** `user_metadata.name`, or '' (the UI shows 'Anonymous'). */
  userName: string;
  /** The account email, or '' (the UI shows 'No email available'). */
  email: string;
  /** `[app_metadata.role || 'user']`: 'user' or 'admin'. */
  authority: string[];
  metadata: Record<string, unknown>;
};

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export type SessionState = {
  status: SessionStatus;
  user: SessionUser | null;
};

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

const userCache = new WeakMap<User, SessionUser>();

export function toSessionUser(user: User): SessionUser {
  const cached = userCache.get(user);
  if (cached) return cached;
  const metadata: Record<string, unknown> = { ...(user.user_metadata ?? {}) };
  const role = text(user.app_metadata?.role);
  const sessionUser: SessionUser = {
    id: user.id,
    userId: user.id,
    avatar: text(metadata.avatar_url) || text(metadata.picture),
    userName: text(metadata.name) || text(metadata.full_name),
    email: text(user.email) || text(metadata.email),
    authority: [role || 'user'],
    metadata,
  };
  userCache.set(user, sessionUser);
  return sessionUser;
}

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

function statusOf(snapshot: SessionSnapshot): SessionStatus {
  if (snapshot.matches('loading')) return 'loading';
  // "Authenticated only when a token exists and signedIn is true" (docs/product.md §4).
  if (snapshot.matches('signedOut') || !snapshot.context.session?.access_token) return 'signedOut';
  return 'signedIn';
}

function userOf(snapshot: SessionSnapshot): SessionUser | null {
  const user = statusOf(snapshot) === 'signedIn' ? snapshot.context.session?.user : undefined;
  return user ? toSessionUser(user) : null;
}

// --- side effects of the machine ---------------------------------------------------------------

function isStoredSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Session>;
  return typeof v.access_token === 'string' && typeof v.refresh_token === 'string' && !!v.user;
}

/** The stored session, without any network call (so an offline start is signed in at once). */
async function readStoredSession(): Promise<Session | null> {
  const raw = await authStorage.getItem(AUTH_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isStoredSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Maps a supabase-js refresh result to the machine's outcome (see RefreshOutcome). */
export function classifyRefreshError(error: unknown): 'transient' | 'refused' {
  if (isAuthRetryableFetchError(error) || isAuthRefreshDiscardedError(error)) return 'transient';
  if (isAuthSessionMissingError(error)) return 'refused';
  if (isAuthApiError(error)) {
    // 409: GoTrue gave up waiting for another refresh of this session (another tab): the session
    // is fine, the stored one is read again and the refresh retried.
    return error.status >= 500 || error.status === 429 || error.status === 409 || error.status === 0
      ? 'transient'
      : 'refused';
  }
  return 'transient';
}

async function refreshStoredSession({
  input,
}: {
  input: { session: Session | null };
}): Promise<RefreshOutcome> {
  // The machine decides when to try again; a failure from while the device was offline must not
  // answer this attempt.
  forgetFailedRefresh(supabase);
  // supabase-js drops its stored session when a refresh of an expired one fails without a retryable
  // status (a 409 included): the machine's copy then names the token to refresh.
  const stored = await readStoredSession();
  const { data, error } =
    stored || !input.session
      ? await supabase.auth.refreshSession()
      : await supabase.auth.refreshSession({ refresh_token: input.session.refresh_token });
  if (!error && data.session) return { kind: 'refreshed', session: data.session };
  if (error && classifyRefreshError(error) === 'refused') {
    console.warn('session: the server refused the refresh', error.message);
    return { kind: 'refused' };
  }
  if (error) console.warn('session: refresh failed, keeping the session', error.message);
  // Another tab may have refreshed meanwhile: take what is stored if it is newer.
  const now = await readStoredSession();
  return now && now.access_token !== input.session?.access_token
    ? { kind: 'refreshed', session: now }
    : { kind: 'transient' };
}

/** Removes the session from this device and tells the other tabs (supabase-js's channel format). */
async function clearLocalSession(): Promise<void> {
  await Promise.all(
    ['', '-user', '-code-verifier'].map((suffix) =>
      authStorage.removeItem(`${AUTH_STORAGE_KEY}${suffix}`),
    ),
  );
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(AUTH_STORAGE_KEY);
    channel.postMessage({ event: 'SIGNED_OUT', session: null });
    channel.close();
  }
}

const SIGN_OUT_SERVER_DEADLINE_MS = 5_000;

/**
 * Revokes this device's session on the server when it is reachable (scope 'local': the user's
 * other devices stay signed in), and always clears it here, even if the server call fails.
 */
async function signOutHere(): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) {
    try {
      await Promise.race([
        supabase.auth.signOut({ scope: 'local' }),
        new Promise((resolve) => setTimeout(resolve, SIGN_OUT_SERVER_DEADLINE_MS)),
      ]);
    } catch (error) {
      console.warn('session: server sign-out failed', error);
    }
  }
  await clearLocalSession();
}

export const liveSessionMachine = sessionMachine.provide({
  actors: {
    loadSession: fromPromise(async () => {
      // A recovery or sign-in link: let supabase-js read the URL and store its session first.
      if (initialAuthRedirect?.hasSession) await supabase.auth.initialize();
      return readStoredSession();
    }),
    refreshSession: fromPromise(refreshStoredSession),
    signOut: fromPromise(signOutHere),
  },
});

// --- the app's one session actor -----------------------------------------------------------------

let actor: Actor<typeof sessionMachine> | null = null;

function start(): Actor<typeof sessionMachine> {
  const sessionActor = createActor(liveSessionMachine);

  supabase.auth.onAuthStateChange((event, session) => {
    // Never call supabase-js from inside its own callback: hand the event over on the next task.
    setTimeout(() => {
      if (event === 'SIGNED_OUT') sessionActor.send({ type: 'auth.signedOut' });
      else if (session) sessionActor.send({ type: 'auth.session', event, session });
      // INITIAL_SESSION without a session (e.g. offline start) says nothing: the stored session
      // was already read by `loadSession`.
    }, 0);
  });

  setUnauthorizedHandler(async () => {
    const before = sessionActor.getSnapshot();
    if (statusOf(before) !== 'signedIn') return null;
    const oldToken = before.context.session?.access_token;
    sessionActor.send({ type: 'session.unauthorized' });
    const after = await waitFor(
      sessionActor,
      (s) => !s.matches('refreshing') && !s.matches('signingOut'),
    );
    const token = statusOf(after) === 'signedIn' ? after.context.session?.access_token : null;
    return token && token !== oldToken ? token : null;
  });

  if (typeof window !== 'undefined') {
    // The browser got a network back, or a call to the server got an answer after failures.
    window.addEventListener('online', () => sessionActor.send({ type: 'session.check' }));
    onBackOnline(() => sessionActor.send({ type: 'session.check' }));
    onForeground(() => sessionActor.send({ type: 'session.check' }));
  }

  // A user's notifications stay on the device only while they are signed in.
  let wasSignedIn = false;
  sessionActor.subscribe((snapshot) => {
    const status = statusOf(snapshot);
    if (wasSignedIn && status === 'signedOut') {
      db.notifications.clear().catch((error: unknown) => console.warn(error));
    }
    if (status !== 'loading') wasSignedIn = status === 'signedIn';
  });

  sessionActor.start();
  return sessionActor;
}

/** The running session actor (started on first use). */
export function getSessionActor(): Actor<typeof sessionMachine> {
  actor ??= start();
  return actor;
}

export function getSessionState(): SessionState {
  const snapshot = getSessionActor().getSnapshot();
  return { status: statusOf(snapshot), user: userOf(snapshot) };
}

/** Resolves once the stored session has been read (status is no longer 'loading'). */
export async function whenSessionKnown(): Promise<SessionState> {
  await waitFor(getSessionActor(), (s) => !s.matches('loading'));
  return getSessionState();
}

/**
 * Calls `listener` at once with the current state, then with every status/user change; returns
 * the unsubscribe function.
 */
export function subscribeSession(listener: (state: SessionState) => void): () => void {
  const sessionActor = getSessionActor();
  let last: SessionState | null = null;
  const emit = (snapshot: SessionSnapshot) => {
    const next = { status: statusOf(snapshot), user: userOf(snapshot) };
    if (last && last.status === next.status && last.user === next.user) return;
    last = next;
    listener(next);
  };
  const subscription = sessionActor.subscribe(emit);
  emit(sessionActor.getSnapshot());
  return () => subscription.unsubscribe();
}

/** The session for React: re-renders when the status or the user changes. */
export function useSession(): SessionState {
  const sessionActor = getSessionActor();
  const status = useSelector(sessionActor, statusOf);
  const user = useSelector(sessionActor, userOf);
  return { status, user };
}

/**
 * Hands a session that this tab just obtained (sign-in, sign-up) to the machine at once, so the
 * route guards see the user signed in before the caller navigates (supabase-js's own event
 * arrives a moment later and changes nothing).
 */
export function adoptSession(session: Session): void {
  getSessionActor().send({ type: 'auth.session', event: 'SIGNED_IN', session });
}

/**
 * This device stops receiving the account's pushes: its subscription row goes (RLS: the user's
 * own) while the session still exists. Offline or slow, the sign-out does not wait longer than
 * 3 s; a row left behind only ever gets the worker's generic wording (src/sw.ts).
 */
async function forgetThisDevicePush(): Promise<void> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription) return;
    await Promise.race([
      supabase.from('push_subscriptions').delete().eq('endpoint', subscription.endpoint),
      new Promise((resolve) => setTimeout(resolve, 3_000)),
    ]);
  } catch {
    // Nothing to forget, or no network: see above.
  }
}

/**
 * Signs out: on the server when reachable, always on this device (and in the other tabs).
 * Resolves once signed out; the caller then navigates to /sign-in.
 */
export async function signOut(): Promise<void> {
  await forgetThisDevicePush();
  const sessionActor = getSessionActor();
  sessionActor.send({ type: 'session.signOut' });
  if (sessionActor.getSnapshot().matches('loading')) {
    await waitFor(sessionActor, (s) => !s.matches('loading'));
    sessionActor.send({ type: 'session.signOut' });
  }
  await waitFor(sessionActor, (s) => s.matches('signedOut'));
}

// Subscribe to supabase-js at once: the events of a sign-in link in the URL fire only once.
if (typeof window !== 'undefined' && import.meta.env.MODE !== 'test') getSessionActor();
