import { useSyncExternalStore } from 'react';

import type * as SessionModuleType from '@/lib/session';
import type { SessionState } from '@/lib/session';

/**
 * The shell's view of the session. src/lib/session.ts (supabase-js, XState, Dexie) is loaded
 * in its own chunk right after start instead of in the first one, so /home paints without
 * waiting for it; until it is there the status is 'loading'. Features use `useSession()` from
 * src/lib/session.ts directly: their routes load after it anyway.
 */
type SessionModule = typeof SessionModuleType;

const loading: SessionState = { status: 'loading', user: null };
let state: SessionState = loading;
let modulePromise: Promise<SessionModule> | null = null;
const listeners = new Set<() => void>();

/** Loads the session module (once) and starts following the session. */
export function loadSessionModule(): Promise<SessionModule> {
  modulePromise ??= import('@/lib/session').then((mod) => {
    mod.subscribeSession((next) => {
      state = next;
      for (const listener of listeners) listener();
    });
    return mod;
  });
  return modulePromise;
}

/** Resolves with the session once the stored session has been read. */
export async function whenSessionKnown(): Promise<SessionState> {
  return (await loadSessionModule()).whenSessionKnown();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  void loadSessionModule();
  return () => listeners.delete(listener);
}

function getState(): SessionState {
  return state;
}

/** `{ status: 'loading' | 'signedOut' | 'signedIn', user }`, re-rendering on change. */
export function useShellSession(): SessionState {
  return useSyncExternalStore(subscribe, getState, getState);
}
