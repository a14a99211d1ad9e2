import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  createClient,
  type User,
} from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/infra/api-config';
import {
  classifyRefreshError,
  subscribeSession,
  toSessionUser,
  whenSessionKnown,
} from '@/infra/session';
import {
  createSessionFetch,
  forgetFailedRefresh,
  parseAuthRedirect,
  setUnauthorizedHandler,
} from '@/infra/supabase';

function user(overrides: Partial<User> = {}): User {
  return {
    id: '5b0c6d3e-1111-4a4a-8b8b-000000000001',
    app_metadata: {},
    user_metadata: {},
    aud: 'authenticated',
    created_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

describe('toSessionUser', () => {
  it('derives the seed sessionUser fields from the supabase user', () => {
    const u = user({
      email: 'amina@example.dz',
      app_metadata: { role: 'admin' },
      user_metadata: {
        name: 'Amina Benali',
        phone: '+213555123456',
        avatar_url: 'https://x/a.png',
      },
    });
    expect(toSessionUser(u)).toEqual({
      id: u.id,
      userId: u.id,
      avatar: 'https://x/a.png',
      userName: 'Amina Benali',
      email: 'amina@example.dz',
      authority: ['admin'],
      metadata: { name: 'Amina Benali', phone: '+213555123456', avatar_url: 'https://x/a.png' },
    });
  });

  it("defaults the authority to 'user' and leaves missing names and emails empty", () => {
    const derived = toSessionUser(user());
    expect(derived.authority).toEqual(['user']);
    expect(derived.userName).toBe('');
    expect(derived.email).toBe('');
    expect(derived.avatar).toBe('');
  });

  it('falls back to the metadata email', () => {
    expect(toSessionUser(user({ user_metadata: { email: 'm@kiraa.dz' } })).email).toBe(
      'm@kiraa.dz',
    );
  });

  it('returns the same object for the same user (stable for React)', () => {
    const u = user();
    expect(toSessionUser(u)).toBe(toSessionUser(u));
  });
});

describe('classifyRefreshError', () => {
  it('keeps the session on network failures and server errors', () => {
    expect(classifyRefreshError(new AuthRetryableFetchError('Failed to fetch', 0))).toBe(
      'transient',
    );
    expect(classifyRefreshError(new AuthApiError('bad gateway', 502, undefined))).toBe('transient');
    expect(
      classifyRefreshError(new AuthApiError('slow down', 429, 'over_request_rate_limit')),
    ).toBe('transient');
    expect(classifyRefreshError(new TypeError('weird'))).toBe('transient');
  });

  it('keeps the session on 409: another refresh of the same session was running (GoTrue)', () => {
    const conflict = new AuthApiError(
      'Too many concurrent token refresh requests on the same session or refresh token',
      409,
      'conflict',
    );
    expect(classifyRefreshError(conflict)).toBe('transient');
  });

  it('ends the session when the server refuses the refresh token', () => {
    expect(
      classifyRefreshError(
        new AuthApiError('Invalid Refresh Token: Already Used', 400, 'refresh_token_already_used'),
      ),
    ).toBe('refused');
    expect(classifyRefreshError(new AuthApiError('gone', 401, undefined))).toBe('refused');
    expect(classifyRefreshError(new AuthSessionMissingError())).toBe('refused');
  });
});

describe('parseAuthRedirect', () => {
  it('reads a recovery link and an expired link', () => {
    expect(
      parseAuthRedirect('#access_token=a&expires_in=3600&refresh_token=r&type=recovery'),
    ).toEqual({ type: 'recovery', hasSession: true, errorCode: null, errorDescription: null });
    expect(
      parseAuthRedirect(
        '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid',
      ),
    ).toEqual({
      type: null,
      hasSession: false,
      errorCode: 'otp_expired',
      errorDescription: 'Email link is invalid',
    });
    expect(parseAuthRedirect('#section-2')).toBeNull();
    expect(parseAuthRedirect('')).toBeNull();
  });
});

describe('createSessionFetch', () => {
  afterEach(() => setUnauthorizedHandler(null));

  function recordingFetch(statuses: number[]) {
    const seen: Request[] = [];
    const baseFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push(request);
      return new Response('{}', { status: statuses[seen.length - 1] ?? 200 });
    }) as typeof fetch;
    return { seen, baseFetch };
  }

  const restUrl = `${SUPABASE_URL}/rest/v1/notifications?select=*`;
  const userHeaders = { authorization: 'Bearer old-token', apikey: SUPABASE_ANON_KEY };

  it('retries a 401 once with the refreshed token', async () => {
    const { seen, baseFetch } = recordingFetch([401, 200]);
    let asked = 0;
    setUnauthorizedHandler(async () => {
      asked += 1;
      return 'new-token';
    });
    const response = await createSessionFetch(baseFetch)(restUrl, {
      method: 'PATCH',
      headers: userHeaders,
      body: '{"is_read":true}',
    });
    expect(response.status).toBe(200);
    expect(asked).toBe(1);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.headers.get('authorization')).toBe('Bearer new-token');
    expect(await seen[1]?.text()).toBe('{"is_read":true}');
  });

  it('hands back the 419/440 answer when the session cannot be refreshed', async () => {
    for (const status of [419, 440]) {
      const { seen, baseFetch } = recordingFetch([status]);
      setUnauthorizedHandler(async () => null);
      const response = await createSessionFetch(baseFetch)(restUrl, { headers: userHeaders });
      expect(response.status).toBe(status);
      expect(seen).toHaveLength(1);
    }
  });

  it('leaves auth calls, anonymous calls and other statuses alone', async () => {
    let asked = 0;
    setUnauthorizedHandler(async () => {
      asked += 1;
      return 'new-token';
    });
    const auth = recordingFetch([401]);
    await createSessionFetch(auth.baseFetch)(`${SUPABASE_URL}/auth/v1/user`, {
      headers: userHeaders,
    });
    const anon = recordingFetch([401]);
    await createSessionFetch(anon.baseFetch)(restUrl, {
      headers: { authorization: `Bearer ${SUPABASE_ANON_KEY}` },
    });
    const forbidden = recordingFetch([403]);
    const response = await createSessionFetch(forbidden.baseFetch)(restUrl, {
      headers: userHeaders,
    });
    expect(response.status).toBe(403);
    expect(asked).toBe(0);
    expect(auth.seen.length + anon.seen.length + forbidden.seen.length).toBe(3);
  });

  it('gives every request a deadline', async () => {
    const { seen, baseFetch } = recordingFetch([200]);
    await createSessionFetch(baseFetch)(restUrl);
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.signal.aborted).toBe(false);
  });
});

describe('subscribeSession', () => {
  it('tells the current state at once, even when the session settled before', async () => {
    // No stored session: the machine settles on signed out and then never changes again.
    expect((await whenSessionKnown()).status).toBe('signedOut');
    const seen: string[] = [];
    const unsubscribe = subscribeSession((state) => seen.push(state.status));
    expect(seen).toEqual(['signedOut']);
    unsubscribe();
  });
});

describe('forgetFailedRefresh', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('makes the next refresh ask the server instead of repeating a failure of the last minute', async () => {
    vi.useFakeTimers();
    // supabase-js logs each failed fetch.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let reachable = false;
    const tokenCalls: string[] = [];
    const fakeFetch = (async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      tokenCalls.push(url);
      if (!reachable) throw new TypeError('Failed to fetch');
      return Response.json({
        access_token: 'access-2',
        refresh_token: 'refresh-2',
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        user: user(),
      });
    }) as typeof fetch;
    const client = createClient(SUPABASE_URL, SUPABASE_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: fakeFetch },
    });
    const refresh = async () => {
      const result = client.auth.refreshSession({ refresh_token: 'refresh-1' });
      await vi.runAllTimersAsync();
      return result;
    };

    // Offline: supabase-js retries with backoff, then fails.
    const offline = await refresh();
    expect(offline.error).toBeInstanceOf(AuthRetryableFetchError);
    const attempts = tokenCalls.length;
    expect(attempts).toBeGreaterThan(1);

    // Back online within the minute: supabase-js repeats the failure without asking…
    reachable = true;
    const cached = await refresh();
    expect(cached.error).toBeInstanceOf(AuthRetryableFetchError);
    expect(tokenCalls).toHaveLength(attempts);

    // …unless the failure is forgotten first.
    forgetFailedRefresh(client);
    const online = await refresh();
    expect(online.error).toBeNull();
    expect(online.data.session?.access_token).toBe('access-2');
    expect(tokenCalls).toHaveLength(attempts + 1);
    expect(tokenCalls.at(-1)).toContain('/auth/v1/token?grant_type=refresh_token');
  });
});
