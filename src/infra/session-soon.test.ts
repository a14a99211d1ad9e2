import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { SessionState } from '@/infra/session';

// The session module (supabase-js) is replaced by one whose session the test drives: what is
// under test is when the wizard's view loads it and what it says meanwhile.
let emitSession: (state: SessionState) => void = () => undefined;
let known: SessionState = { status: 'loading', user: null };
const waiting: Array<() => void> = [];
const loaded = vi.fn();
vi.mock('@/infra/session', () => {
  loaded();
  return {
    subscribeSession: (listener: (state: SessionState) => void) => {
      emitSession = (state) => {
        known = state;
        listener(state);
        if (state.status !== 'loading') waiting.splice(0).forEach((wake) => wake());
      };
      listener(known);
      return () => undefined;
    },
    whenSessionKnown: () =>
      known.status === 'loading'
        ? new Promise<SessionState>((resolve) => waiting.push(() => resolve(known)))
        : Promise.resolve(known),
  };
});

const user = {
  id: 'u',
  userId: 'u',
  avatar: '',
  userName: 'A',
  email: 'a@b.dz',
  authority: ['user'],
  metadata: {},
};

describe("the wizard's view of the session", () => {
  it('draws a visitor at once, loads the session once idle, then follows it', async () => {
    localStorage.clear();
    const { useSessionSoon } = await import('@/infra/session-soon');
    const view = renderHook(() => useSessionSoon());
    // The first render guesses from the hint, before anything is loaded.
    expect(view.result.current.status).toBe('signedOut');
    await waitFor(() => expect(loaded).toHaveBeenCalledOnce());
    // The module reads the stored session first ('loading'): the guess stands meanwhile, so
    // the wizard drawn on it is not swapped for a spinner and started again.
    expect(view.result.current.status).toBe('signedOut');
    act(() => emitSession({ status: 'loading', user: null }));
    expect(view.result.current.status).toBe('signedOut');
    act(() => emitSession({ status: 'signedIn', user }));
    expect(view.result.current).toEqual({ status: 'signedIn', user });
  });

  it("gives the booking its user's id only once the session is known", async () => {
    const { signedInUserId } = await import('@/infra/session-soon');
    act(() => emitSession({ status: 'loading', user: null }));
    let id: string | null | undefined;
    const asked = signedInUserId().then((value) => (id = value));
    await Promise.resolve();
    expect(id).toBeUndefined();
    act(() => emitSession({ status: 'signedIn', user }));
    await asked;
    expect(id).toBe('u');
    act(() => emitSession({ status: 'signedOut', user: null }));
    expect(await signedInUserId()).toBeNull();
  });
});
