import { useEffect } from 'react';

import type { SessionState } from '@/infra/session';
import { loadSessionModule, useSessionGuess } from '@/infra/session-view';

/*
 * The booking wizard's view of the session, apart from session-view.ts so that the shell (which
 * every page loads) does not carry it.
 */

/**
 * The guess at once, the session itself once the page is drawn (it loads the module when the
 * browser is idle). For a page that must follow the session but can draw without it: the
 * booking wizard's first step needs no supabase-js.
 */
export function useSessionSoon(): SessionState {
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      void loadSessionModule();
      return;
    }
    const idle = requestIdleCallback(() => void loadSessionModule(), { timeout: 2000 });
    return () => cancelIdleCallback(idle);
  }, []);
  return useSessionGuess();
}

/** The signed-in user's id, once the session is known (null for a visitor). */
export async function signedInUserId(): Promise<string | null> {
  const session = await (await loadSessionModule()).whenSessionKnown();
  return session.user?.id ?? null;
}
