import type { Session } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';

import {
  needsRefresh,
  type RefreshOutcome,
  SESSION_CHECK_INTERVAL_MS,
  sessionMachine,
} from '@/infra/session.machine';

const NOW = Date.parse('2026-03-01T10:00:00Z');

function session(expiresInSeconds: number | null, token = 'access-1'): Session {
  return {
    access_token: token,
    refresh_token: `refresh-${token}`,
    token_type: 'bearer',
    expires_in: expiresInSeconds ?? 3600,
    expires_at:
      expiresInSeconds === null ? undefined : Math.floor(Date.now() / 1000) + expiresInSeconds,
    user: {
      id: 'u1',
      app_metadata: {},
      user_metadata: { name: 'Amina' },
      aud: 'authenticated',
      created_at: '2026-01-01T00:00:00Z',
    },
  };
}

type Fakes = {
  stored?: Session | null;
  refresh?: (calls: number) => RefreshOutcome | Promise<RefreshOutcome>;
  online?: () => boolean;
};

function startMachine({ stored = null, refresh, online = () => true }: Fakes) {
  const calls = { refresh: 0, signOut: 0 };
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        loadSession: fromPromise(async () => stored),
        refreshSession: fromPromise(async () => {
          calls.refresh += 1;
          return refresh ? refresh(calls.refresh) : { kind: 'transient' as const };
        }),
        signOut: fromPromise(async () => {
          calls.signOut += 1;
        }),
      },
      guards: { isOnline: () => online() },
    }),
  );
  actor.start();
  return { actor, calls };
}

/** Lets the fake actors' promises settle. */
async function flush() {
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('needsRefresh', () => {
  it('refreshes when the expiry is missing or under 300 s away', () => {
    const now = NOW;
    const at = (s: number) => ({ ...session(0), expires_at: now / 1000 + s });
    expect(needsRefresh(session(null), now)).toBe(true);
    expect(needsRefresh(at(299), now)).toBe(true);
    expect(needsRefresh(at(-10), now)).toBe(true);
    expect(needsRefresh(at(300), now)).toBe(false);
    expect(needsRefresh(at(3600), now)).toBe(false);
  });
});

describe('session machine', () => {
  it('starts signed out without a stored session', async () => {
    const { actor, calls } = startMachine({ stored: null });
    expect(actor.getSnapshot().value).toBe('loading');
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(calls.refresh).toBe(0);
  });

  it('checks once at start and refreshes a token that expires within 300 s', async () => {
    const fresh = session(3600, 'access-2');
    const { actor, calls } = startMachine({
      stored: session(120),
      refresh: () => ({ kind: 'refreshed', session: fresh }),
    });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-2');
  });

  it('does not refresh a token with more than 300 s left, then checks every 60 s', async () => {
    const { actor, calls } = startMachine({
      stored: session(400),
      refresh: () => ({ kind: 'refreshed', session: session(3600, 'access-2') }),
    });
    await flush();
    expect(calls.refresh).toBe(0);
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);

    // 59 s later: no check yet; the token still has 341 s.
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS - 1_000);
    expect(calls.refresh).toBe(0);
    // At 60 s the check runs, but 340 s are left: nothing to do.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.refresh).toBe(0);
    // At 120 s, 280 s are left: the check refreshes.
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-2');
  });

  it('refreshes when the expiry is unknown', async () => {
    const { calls } = startMachine({ stored: session(null) });
    await flush();
    expect(calls.refresh).toBe(1);
  });

  it('stays signed in while offline: no refresh attempt, no sign-out', async () => {
    let online = false;
    const { actor, calls } = startMachine({
      stored: session(30),
      online: () => online,
      refresh: () => ({ kind: 'refreshed', session: session(3600, 'access-2') }),
    });
    await flush();
    // Hours offline with an expired token: still signed in, nothing sent.
    await vi.advanceTimersByTimeAsync(3 * 60 * 60 * 1000);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-1');
    expect(calls.refresh).toBe(0);
    expect(calls.signOut).toBe(0);

    // Back online: the `online` event triggers a check at once.
    online = true;
    actor.send({ type: 'session.check' });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-2');
  });

  it('keeps the session when a refresh gets no answer, and retries after 5, 10, 20, 40, 60 s', async () => {
    const { actor, calls } = startMachine({
      stored: session(100),
      refresh: (n) =>
        n <= 6 ? { kind: 'transient' } : { kind: 'refreshed', session: session(3600, 'access-2') },
    });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(calls.signOut).toBe(0);

    const waits = [5_000, 10_000, 20_000, 40_000, 60_000, 60_000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls.refresh).toBe(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.refresh).toBe(i + 2);
    }
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-2');
    expect(actor.getSnapshot().context.failures).toBe(0);
    expect(calls.signOut).toBe(0);

    // After a success the check is back to every 60 s (and the new token needs nothing).
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 3);
    expect(calls.refresh).toBe(7);
  });

  it('a session from supabase-js (another tab refreshed) ends the quick retries', async () => {
    const { actor, calls } = startMachine({ stored: session(100) });
    await flush();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.refresh).toBe(2);
    expect(actor.getSnapshot().context.failures).toBe(2);

    actor.send({ type: 'auth.session', event: 'TOKEN_REFRESHED', session: session(3600, 'b') });
    expect(actor.getSnapshot().context.failures).toBe(0);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS * 2);
    expect(calls.refresh).toBe(2);
    expect(actor.getSnapshot().context.session?.access_token).toBe('b');
  });

  it('keeps the session when the refresh actor throws', async () => {
    const { actor, calls } = startMachine({
      stored: session(100),
      refresh: () => Promise.reject(new Error('boom')),
    });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(calls.signOut).toBe(0);
  });

  it('signs out when the server refuses the refresh', async () => {
    const { actor, calls } = startMachine({
      stored: session(100),
      refresh: () => ({ kind: 'refused' }),
    });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(calls.signOut).toBe(1);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('refreshes on a 401 even with time left, and signs out when that refresh is refused', async () => {
    const { actor, calls } = startMachine({
      stored: session(3600),
      refresh: () => ({ kind: 'refused' }),
    });
    await flush();
    expect(calls.refresh).toBe(0);
    actor.send({ type: 'session.unauthorized' });
    await flush();
    expect(calls.refresh).toBe(1);
    expect(actor.getSnapshot().value).toBe('signedOut');
  });

  it('a 401 whose refresh succeeds keeps the user signed in with the new token', async () => {
    const { actor } = startMachine({
      stored: session(3600),
      refresh: () => ({ kind: 'refreshed', session: session(3600, 'access-2') }),
    });
    await flush();
    actor.send({ type: 'session.unauthorized' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.session?.access_token).toBe('access-2');
  });

  it('signs out on request, even when the server call fails', async () => {
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          loadSession: fromPromise(async (): Promise<Session | null> => session(3600)),
          signOut: fromPromise(async (): Promise<void> => {
            throw new Error('offline');
          }),
        },
      }),
    ).start();
    await flush();
    actor.send({ type: 'session.signOut' });
    expect(actor.getSnapshot().value).toBe('signingOut');
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
  });

  it('follows sign-in and sign-out events from supabase-js (this tab or another)', async () => {
    const { actor } = startMachine({ stored: null });
    await flush();
    actor.send({ type: 'auth.session', event: 'SIGNED_IN', session: session(3600) });
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    actor.send({ type: 'auth.session', event: 'TOKEN_REFRESHED', session: session(3600, 'b') });
    expect(actor.getSnapshot().context.session?.access_token).toBe('b');
    actor.send({ type: 'auth.signedOut' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('an event that arrives while loading wins over an empty store', async () => {
    const { actor } = startMachine({ stored: null });
    actor.send({ type: 'auth.session', event: 'SIGNED_IN', session: session(3600) });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });
});
