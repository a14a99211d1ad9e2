import { useSyncExternalStore } from 'react';

import type * as SessionModuleType from '@/infra/session';
import type { SessionState } from '@/infra/session';
import { adoptAccountTheme } from '@/infra/theme';

/**
 * The shell's view of the session.
 *
 * src/infra/session.ts (supabase-js, XState, Dexie: ~100 KB gzip) is loaded only when needed, so a
 * visitor's first screen stays light: at start when this device was signed in last time (a
 * hint in localStorage, kept up to date from the session itself), on the authentication pages,
 * on guarded pages, and when another tab signs in. Until it is loaded:
 * - `useShellSession()` (guards) says 'loading' and starts loading it;
 * - `useSessionGuess()` (header, navigation) says 'signedOut' when the hint says so.
 * - `useSessionSoon()` (session-soon.ts, the booking wizard) says the guess and loads it once the
 *   page is drawn.
 * Other features use `useSession()` from src/infra/session.ts directly.
 */
type SessionModule = typeof SessionModuleType;

/** '1' while this device has a signed-in session (written from the session's own state). */
export const SESSION_HINT_KEY = 'kiraa-signed-in';

const loading: SessionState = { status: 'loading', user: null };
const signedOutGuess: SessionState = { status: 'signedOut', user: null };

let known: SessionState | null = null;
let modulePromise: Promise<SessionModule> | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function hintSaysSignedIn(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return true;
  }
}

function writeHint(signedIn: boolean) {
  try {
    if (signedIn) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // Storage blocked: the session is then always loaded at start.
  }
}

/** Loads the session module (once) and follows the session from then on. */
export function loadSessionModule(): Promise<SessionModule> {
  modulePromise ??= import('@/infra/session').then((mod) => {
    mod.subscribeSession((next) => {
      // A sign-in on this page (not a stored session at start): the account's appearance applies.
      if (known?.status === 'signedOut' && next.status === 'signedIn') {
        adoptAccountTheme(next.user?.metadata);
      }
      known = next;
      if (next.status !== 'loading') writeHint(next.status === 'signedIn');
      emit();
    });
    return mod;
  });
  return modulePromise;
}

/** At start: load the session only if this device was signed in (or another tab signs in). */
export function startSession(): void {
  if (hintSaysSignedIn()) void loadSessionModule();
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_HINT_KEY && event.newValue === '1') void loadSessionModule();
  });
}

/** The session as far as this page knows it now ('loading' until then; never loads it). */
export function getShellSession(): SessionState {
  return known ?? loading;
}

/**
 * Calls `listener` once, as soon as this page knows that a user is signed in: at once if it
 * already does, else when the session module (loaded by a guard, an auth page…) says so.
 */
export function whenSignedIn(listener: () => void): void {
  if (known?.status === 'signedIn') return listener();
  const check = () => {
    if (known?.status !== 'signedIn') return;
    listeners.delete(check);
    listener();
  };
  listeners.add(check);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function subscribeAndLoad(listener: () => void): () => void {
  void loadSessionModule();
  return subscribe(listener);
}

/** The session, authoritative: 'loading' until it is known (loads it). For guards. */
export function useShellSession(): SessionState {
  return useSyncExternalStore(
    subscribeAndLoad,
    () => known ?? loading,
    () => loading,
  );
}

/**
 * The session if known, else a guess from the hint (never loads it). For the header. Rendered
 * at build time (scripts/first-screen.ts), it guesses a first visit: signed out (index.html drops
 * the "sign in" link on a device whose hint says otherwise).
 */
export function useSessionGuess(): SessionState {
  return useSyncExternalStore(
    subscribe,
    // The module says 'loading' while it reads the stored session: that is no news, so the guess
    // stands until the session is known. Else the booking wizard, drawn on the guess, gave way to
    // a spinner and started again (what the traveller had typed gone) when the module arrived.
    () =>
      known && known.status !== 'loading' ? known : hintSaysSignedIn() ? loading : signedOutGuess,
    () => signedOutGuess,
  );
}
