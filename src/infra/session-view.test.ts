import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { SessionState } from '@/infra/session';

// The real session module needs supabase-js and a stack; here only the shell's loading policy is
// under test, so the module is replaced by one whose session the test drives.
let emitSession: (state: SessionState) => void = () => undefined;
const loaded = vi.fn();
vi.mock('@/infra/session', () => {
  loaded();
  return {
    subscribeSession: (listener: (state: SessionState) => void) => {
      emitSession = listener;
      listener({ status: 'loading', user: null });
      return () => undefined;
    },
  };
});

describe('shell session', () => {
  it('guesses "signed out" without loading the session when this device has no hint', async () => {
    localStorage.clear();
    const { SESSION_HINT_KEY, startSession, useSessionGuess, useShellSession, loadSessionModule } =
      await import('@/infra/session-view');
    startSession();
    const guess = renderHook(() => useSessionGuess());
    expect(guess.result.current.status).toBe('signedOut');
    await Promise.resolve();
    expect(loaded).not.toHaveBeenCalled();

    // A guard needs the truth: it loads the module and waits.
    const guard = renderHook(() => useShellSession());
    expect(guard.result.current.status).toBe('loading');
    await act(() => loadSessionModule().then(() => undefined));
    expect(loaded).toHaveBeenCalledOnce();

    // Signing in updates both views and leaves the hint for the next start.
    const user = {
      id: 'u',
      userId: 'u',
      avatar: '',
      userName: 'A',
      email: 'a@b.dz',
      authority: ['user'],
      metadata: {},
    };
    act(() => emitSession({ status: 'signedIn', user }));
    expect(guess.result.current).toEqual({ status: 'signedIn', user });
    expect(guard.result.current.status).toBe('signedIn');
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBe('1');

    act(() => emitSession({ status: 'signedOut', user: null }));
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
    expect(guess.result.current.status).toBe('signedOut');
  });

  it('tells the background work once a user is signed in, at once or later', async () => {
    localStorage.clear();
    const { whenSignedIn, loadSessionModule } = await import('@/infra/session-view');
    await loadSessionModule();
    act(() => emitSession({ status: 'signedOut', user: null }));
    const later = vi.fn();
    whenSignedIn(later);
    expect(later).not.toHaveBeenCalled();

    const user = { id: 'u2', userId: 'u2', avatar: '', userName: 'B', email: 'b@c.dz' };
    act(() => emitSession({ status: 'signedIn', user: { ...user, authority: [], metadata: {} } }));
    expect(later).toHaveBeenCalledOnce();
    act(() => emitSession({ status: 'signedOut', user: null }));
    act(() => emitSession({ status: 'signedIn', user: { ...user, authority: [], metadata: {} } }));
    expect(later).toHaveBeenCalledOnce();

    const now = vi.fn();
    whenSignedIn(now);
    expect(now).toHaveBeenCalledOnce();
  });
});
