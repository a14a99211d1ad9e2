/**
 * The local auth API (GoTrue subset) through supabase-js and the gateway, against the run's real
 * stack (PGlite, or PostgreSQL with KIRAA_TEST_DB=postgres): sign-up, sign-in, refresh-token
 * rotation, sign-out, user updates, GoTrue's error codes, rate limits and the admin API.
 *
 * Rate-limit tests present their own client address with X-Forwarded-For (the test stack trusts
 * it), so their counters never touch other tests'.
 */
import { createHash, randomInt } from 'node:crypto';

import {
  createClient,
  isAuthApiError,
  isAuthSessionMissingError,
  isAuthWeakPasswordError,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';

import { decodeJwt, signJwt } from '../../supabase/local/jwt.ts';
import { sql, testStack, uniqueEmail } from '../support/clients.ts';
import { waitForMailAt } from '../support/supabase.ts';

const PASSWORD = 'Kiraa-test1!';
const PROFILE = {
  name: 'Amine Kaci',
  phone: '+213555123000',
  age: 28,
  address: '3 rue Larbi Ben Mhidi, Alger',
};

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

/** A supabase-js client as a browser would be, optionally from its own client address. */
function client(options: { ip?: string; key?: string; bearer?: string } = {}): SupabaseClient {
  const stack = testStack();
  const headers: Record<string, string> = {};
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  // supabase-js sends `Authorization: Bearer <key>`; the same-named header replaces it.
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  return createClient(stack.apiUrl, options.key ?? stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
    realtime: { transport: NoRealtime as never },
  });
}

const admin = () => client({ key: testStack().serviceRoleKey });

/** A private client address that no other test (or run) is likely to use. */
function freshIp(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

async function signUp(email = uniqueEmail('auth'), data: Record<string, unknown> = PROFILE) {
  const c = client();
  const { data: result, error } = await c.auth.signUp({
    email,
    password: PASSWORD,
    options: { data },
  });
  expect(error).toBeNull();
  expect(result.session).not.toBeNull();
  return { client: c, email, session: result.session as Session, user: result.user! };
}

/** A raw call to the auth API with supabase-js's headers, to see GoTrue's exact answers. */
async function authFetch(path: string, init: RequestInit & { bearer?: string } = {}) {
  const stack = testStack();
  const headers = new Headers(init.headers);
  headers.set('apikey', stack.anonKey);
  headers.set('x-supabase-api-version', '2024-01-01');
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`);
  if (init.body) headers.set('content-type', 'application/json');
  const res = await fetch(`${stack.apiUrl}/auth/v1${path}`, {
    ...init,
    headers,
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Moves a used refresh token's last use into the past, beyond GoTrue's 10 s reuse interval. */
async function ageRefreshToken(token: string, seconds = 60): Promise<void> {
  const rows = await sql(
    `update auth.refresh_tokens set updated_at = now() - make_interval(secs => $2)
      where token = $1 returning id`,
    [sha256(token), seconds],
  );
  expect(rows).toHaveLength(1);
}

describe('sign-up', () => {
  it('creates a confirmed user with its metadata, identity and profile, and returns a session', async () => {
    const email = uniqueEmail('signup');
    const before = Math.floor(Date.now() / 1000);
    const { session, user } = await signUp(email);

    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(session.refresh_token.length).toBeGreaterThanOrEqual(32);
    expect(user.email).toBe(email);
    expect(user.aud).toBe('authenticated');
    expect(user.role).toBe('authenticated');
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.last_sign_in_at).toBeTruthy();
    expect(user.user_metadata).toMatchObject({ ...PROFILE, email_verified: true });
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'], role: 'user' });
    expect(user.identities).toHaveLength(1);
    expect(user.identities?.[0]).toMatchObject({
      provider: 'email',
      id: user.id,
      user_id: user.id,
      email,
    });
    expect(user.identities?.[0]?.identity_data).toMatchObject({ sub: user.id, email });

    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      sub: user.id,
      email,
      phone: '',
      iss: `${testStack().apiUrl}/auth/v1`,
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'], role: 'user' },
      user_metadata: { name: PROFILE.name },
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);

    const [row] = await sql<{ encrypted_password: string; identities: number; sessions: number }>(
      `select u.encrypted_password,
              (select count(*)::int from auth.identities i where i.user_id = u.id) as identities,
              (select count(*)::int from auth.sessions s where s.user_id = u.id) as sessions
         from auth.users u where u.id = $1`,
      [user.id],
    );
    expect(row?.encrypted_password).toMatch(/^\$2[ab]\$10\$/);
    expect(row?.encrypted_password).not.toContain(PASSWORD);
    expect(row).toMatchObject({ identities: 1, sessions: 1 });
    const [profile] = await sql(
      `select full_name, phone, age, address from public.profiles where id = $1`,
      [user.id],
    );
    expect(profile).toEqual({
      full_name: PROFILE.name,
      phone: PROFILE.phone,
      age: PROFILE.age,
      address: PROFILE.address,
    });
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const { email } = await signUp();
    for (const again of [email, email.toUpperCase()]) {
      const { data, error } = await client().auth.signUp({ email: again, password: PASSWORD });
      expect(data.session).toBeNull();
      expect(isAuthApiError(error)).toBe(true);
      expect(error).toMatchObject({
        status: 422,
        code: 'user_already_exists',
        message: 'User already registered',
      });
    }
  });

  it('lets only one of two simultaneous sign-ups with one email through', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all([
      client().auth.signUp({ email, password: PASSWORD, options: { data: PROFILE } }),
      client().auth.signUp({ email, password: PASSWORD, options: { data: PROFILE } }),
    ]);
    const errors = results.map((r) => r.error).filter(Boolean);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 422, code: 'user_already_exists' });
    expect(await sql(`select 1 from auth.users where email = $1`, [email])).toHaveLength(1);
  });

  it.each([
    ['Sh0rt!', ['length']],
    ['lowercase-only1', ['characters']],
    ['UPPERCASE-ONLY1', ['characters']],
    ['No-Digits-Here', ['characters']],
    ['NoSymbols123', ['characters']],
    ['short', ['length', 'characters']],
  ])('refuses the weak password %j with reasons %j', async (password, reasons) => {
    const email = uniqueEmail('weak');
    const { data, error } = await client().auth.signUp({ email, password });
    expect(data.session).toBeNull();
    expect(isAuthWeakPasswordError(error)).toBe(true);
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons });
    expect(await sql(`select 1 from auth.users where email = $1`, [email])).toHaveLength(0);
  });

  it('answers weak passwords with GoTrue 2024-01-01 error bodies', async () => {
    const res = await authFetch('/signup', {
      method: 'POST',
      body: JSON.stringify({ email: uniqueEmail(), password: 'abc' }),
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    // GoTrue's handleResponseErrorWeakPassword sets x-sb-error-code only without the version.
    expect(res.headers.get('x-sb-error-code')).toBeNull();
    expect(res.body).toEqual({
      code: 'weak_password',
      message: expect.stringContaining('Password should be at least 8 characters.'),
      weak_password: { reasons: ['length', 'characters'] },
    });
    const stack = testStack();
    const old = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'abc' }),
    });
    expect(old.status).toBe(422);
    expect(old.headers.get('x-sb-error-code')).toBe('weak_password');
    expect(await old.json()).toMatchObject({ code: 422, error_code: 'weak_password' });
  });

  it.each(['not-an-email', 'amine@', '@kiraa.test', 'amine kaci@kiraa.test', 'amine@kiraa..test'])(
    'refuses the malformed email %j',
    async (email) => {
      const { error } = await client().auth.signUp({ email, password: PASSWORD });
      expect(error).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Unable to validate email address: invalid format',
      });
    },
  );

  it('refuses a sign-up without email or password', async () => {
    const noEmail = await client().auth.signUp({ email: '', password: PASSWORD });
    expect(noEmail.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'An email address is required',
    });
    const noPassword = await client().auth.signUp({ email: uniqueEmail(), password: '' });
    expect(noPassword.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Signup requires a valid password',
    });
  });

  it.each([
    [{ ...PROFILE, age: 16 }, 'age: under_age'],
    [{ ...PROFILE, age: 'old' }, 'age: format'],
    [{ ...PROFILE, phone: '0555 12 34' }, 'phone: format'],
    [{ ...PROFILE, name: 'Amine \u202eKaci' }, 'name: control_characters'],
    [{ ...PROFILE, name: 'x'.repeat(101) }, 'name: too_long'],
    [{ ...PROFILE, name: 'Amine\nDear customer, pay at evil.example' }, 'name: control_characters'],
    [{ ...PROFILE, address: '' }, 'address: required'],
    [{ name: PROFILE.name }, 'phone: required'],
    [{ ...PROFILE, locale: 'de' }, 'locale: format'],
  ])(
    'answers bad profile data %j with 422 naming the field (Before User Created hook), keeping nothing',
    async (data, message) => {
      const email = uniqueEmail('profile');
      const res = await authFetch('/signup', {
        method: 'POST',
        body: JSON.stringify({ email, password: PASSWORD, data }),
      });
      // GoTrue's answer to a hook error: its status and message, no error code.
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ code: 'unknown', message });
      expect(res.headers.get('x-sb-error-code')).toBeNull();
      expect(await sql(`select 1 from auth.users where email = $1`, [email])).toHaveLength(0);
      const { error } = await client().auth.signUp({
        email,
        password: PASSWORD,
        options: { data },
      });
      expect(isAuthApiError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, message });
    },
  );

  it('keeps the profile trigger as the last line of defence: a user row with bad data is refused', async () => {
    // What the hook would have stopped, written past it (e.g. by hand in SQL): the table's CHECK.
    await expect(
      sql(
        `insert into auth.users (id, email, raw_user_meta_data) values (gen_random_uuid(), $1, $2)`,
        [uniqueEmail('minor'), JSON.stringify({ ...PROFILE, age: 16 })],
      ),
    ).rejects.toThrow(/invalid_age/);
  });
});

describe('sign-in', () => {
  it('signs in with the password, case-insensitively, and records last_sign_in_at', async () => {
    const { email, user } = await signUp();
    await sql(`update auth.users set last_sign_in_at = now() - interval '1 day' where id = $1`, [
      user.id,
    ]);
    const { data, error } = await client().auth.signInWithPassword({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.session?.access_token).toBeTruthy();
    expect(Date.now() - Date.parse(data.user!.last_sign_in_at!)).toBeLessThan(60_000);
    expect(decodeJwt(data.session!.access_token).session_id).not.toBe(
      decodeJwt(data.session!.access_token).sub,
    );
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const { email } = await signUp();
    for (const attempt of [
      { email, password: 'Wrong-pass1!' },
      { email: uniqueEmail('nobody'), password: PASSWORD },
    ]) {
      const { data, error } = await client().auth.signInWithPassword(attempt);
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it("signs in the seed's demo customer, whose hash pgcrypto wrote", async () => {
    // As the seed writes it (another file may have signed the customer in, upgrading the hash).
    await sql(
      `update auth.users set encrypted_password = extensions.crypt('Kiraa2026!', extensions.gen_salt('bf', 6))
        where email = 'client@kiraa.dz'`,
    );
    const [seeded] = await sql<{ encrypted_password: string }>(
      `select encrypted_password from auth.users where email = 'client@kiraa.dz'`,
    );
    expect(seeded?.encrypted_password).toMatch(/^\$2a\$/);
    const { data, error } = await client().auth.signInWithPassword({
      email: 'client@kiraa.dz',
      password: 'Kiraa2026!',
    });
    expect(error).toBeNull();
    expect(data.user?.app_metadata.role).toBe('user');
    // The weak pgcrypto hash (cost 6) is upgraded to the configured cost once the password is known.
    const [after] = await sql<{ encrypted_password: string }>(
      `select encrypted_password from auth.users where email = 'client@kiraa.dz'`,
    );
    expect(after?.encrypted_password).toMatch(/^\$2[ab]\$10\$/);
    const again = await client().auth.signInWithPassword({
      email: 'client@kiraa.dz',
      password: 'Kiraa2026!',
    });
    expect(again.error).toBeNull();
  });

  it("carries the staff role of the seed's admin in app_metadata", async () => {
    const { data, error } = await client().auth.signInWithPassword({
      email: 'admin@kiraa.dz',
      password: 'Kiraa2026!',
    });
    expect(error).toBeNull();
    expect(decodeJwt(data.session!.access_token).app_metadata).toMatchObject({ role: 'admin' });
  });

  it('refuses a user whose email is not confirmed', async () => {
    const email = uniqueEmail('unconfirmed');
    const created = await admin().auth.admin.createUser({ email, password: PASSWORD });
    expect(created.error).toBeNull();
    const { error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });
});

describe('sessions', () => {
  it('gets and updates the user, merging metadata', async () => {
    const { client: c, session, user } = await signUp();
    const got = await c.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(user.id);

    const updated = await c.auth.updateUser({
      data: { name: 'Amine K.', locale: 'ar', address: null },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({
      name: 'Amine K.',
      phone: PROFILE.phone,
      age: PROFILE.age,
      locale: 'ar',
      email_verified: true,
    });
    const [row] = await sql(
      `select raw_user_meta_data ->> 'name' as name from auth.users where id = $1`,
      [user.id],
    );
    expect(row).toEqual({ name: 'Amine K.' });
    // The next access token carries the new metadata.
    const refreshed = await c.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(decodeJwt(refreshed.data.session!.access_token).user_metadata).toMatchObject({
      name: 'Amine K.',
      locale: 'ar',
    });
  });

  it('rotates the refresh token: each refresh gives a working token and revokes the one used', async () => {
    const { client: c, session } = await signUp();
    const first = await c.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    const second = first.data.session!;
    expect(second.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(second.access_token).session_id).toBe(
      decodeJwt(session.access_token).session_id,
    );
    expect(decodeJwt(second.access_token).amr).toEqual(decodeJwt(session.access_token).amr);

    const user = await c.auth.getUser(second.access_token);
    expect(user.error).toBeNull();
    const third = await c.auth.refreshSession({ refresh_token: second.refresh_token });
    expect(third.error).toBeNull();

    const tokens = await sql<{ token: string; revoked: boolean; parent: string | null }>(
      `select token, revoked, parent from auth.refresh_tokens where token = any($1) order by id`,
      [
        [session.refresh_token, second.refresh_token, third.data.session!.refresh_token].map(
          sha256,
        ),
      ],
    );
    expect(tokens.map((t) => t.revoked)).toEqual([true, true, false]);
    expect(tokens[1]?.parent).toBe(sha256(session.refresh_token));
    // Only hashes are stored.
    expect(
      await sql(`select 1 from auth.refresh_tokens where token = $1`, [session.refresh_token]),
    ).toHaveLength(0);
  });

  it('refuses a rotated refresh token used again after the reuse interval and revokes its family; the newest token still works for 10 s (GoTrue)', async () => {
    const { client: c, session } = await signUp();
    const second = (await c.auth.refreshSession({ refresh_token: session.refresh_token })).data
      .session!;
    const third = (await c.auth.refreshSession({ refresh_token: second.refresh_token })).data
      .session!;
    await ageRefreshToken(session.refresh_token);

    const reused = await c.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reused.data.session).toBeNull();
    expect(isAuthApiError(reused.error)).toBe(true);
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const tokens = await sql<{ revoked: boolean }>(
      `select revoked from auth.refresh_tokens where session_id = (
         select session_id from auth.refresh_tokens where token = $1)`,
      [sha256(third.refresh_token)],
    );
    expect(tokens.every((t) => t.revoked)).toBe(true);

    // The newest token was revoked just now: within the reuse interval it is still accepted once
    // more (a tab that was refreshing at that moment), then the family is closed for good.
    const latest = await client().auth.refreshSession({ refresh_token: third.refresh_token });
    expect(latest.error).toBeNull();
    // Its successor is used, then the old one comes back after the interval: refused.
    expect(
      (await client().auth.refreshSession({ refresh_token: latest.data.session!.refresh_token }))
        .error,
    ).toBeNull();
    await ageRefreshToken(third.refresh_token);
    const late = await authFetch('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: third.refresh_token }),
    });
    expect(late).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
    expect(late.headers.get('x-sb-error-code')).toBe('refresh_token_already_used');
  });

  it.skipIf(testStack().engine === 'pglite')(
    'answers 409 conflict when another refresh holds the session for 5 s (GoTrue); PGlite is one session, so no lock can be held there',
    async () => {
      const { session } = await signUp();
      const pg = (await import('pg')).default;
      const holder = new pg.Client({ connectionString: testStack().dbUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query(
          `select 1 from auth.sessions where id = (
             select session_id from auth.refresh_tokens where token = $1) for update`,
          [sha256(session.refresh_token)],
        );
        const started = Date.now();
        const res = await authFetch('/token?grant_type=refresh_token', {
          method: 'POST',
          body: JSON.stringify({ refresh_token: session.refresh_token }),
        });
        expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
        expect(res).toMatchObject({
          status: 409,
          body: {
            code: 'conflict',
            message:
              'Too many concurrent token refresh requests on the same session or refresh token',
          },
        });
      } finally {
        await holder.query('rollback');
        await holder.end();
      }
      // Once the other refresh is done, the same token refreshes.
      expect(
        (await client().auth.refreshSession({ refresh_token: session.refresh_token })).error,
      ).toBeNull();
    },
  );

  it('accepts the previous refresh token within the reuse interval (two tabs refreshing at once)', async () => {
    const { client: c, session } = await signUp();
    const tabA = await c.auth.refreshSession({ refresh_token: session.refresh_token });
    const tabB = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(tabA.error).toBeNull();
    expect(tabB.error).toBeNull();
    // Both continue to work for now (tab A's successor was replaced by tab B's, within the
    // interval), and the session keeps a single live token: reusing the old one in the window
    // never grows the family.
    expect(
      (await client().auth.refreshSession({ refresh_token: tabA.data.session!.refresh_token }))
        .error,
    ).toBeNull();
    expect(
      (await client().auth.refreshSession({ refresh_token: tabB.data.session!.refresh_token }))
        .error,
    ).toBeNull();
    const [{ live } = { live: -1 }] = await sql<{ live: number }>(
      `select count(*)::int as live from auth.refresh_tokens t
         join auth.sessions s on s.id = t.session_id
        where s.user_id = $1 and not t.revoked`,
      [session.user.id],
    );
    expect(live).toBe(1);
    // Past the interval, tab A's replaced token is a copy someone still holds: the family goes.
    await ageRefreshToken(tabA.data.session!.refresh_token);
    const late = await client().auth.refreshSession({
      refresh_token: tabA.data.session!.refresh_token,
    });
    expect(late.error).toMatchObject({ code: 'refresh_token_already_used' });
  });

  it('accepts a used refresh token whose answer was lost (its successor never used)', async () => {
    const { client: c, session } = await signUp();
    const lost = await c.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(lost.error).toBeNull();
    await ageRefreshToken(session.refresh_token);
    const retry = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(retry.error).toBeNull();
    expect(
      (await client().auth.refreshSession({ refresh_token: retry.data.session!.refresh_token }))
        .error,
    ).toBeNull();
  });

  it('refuses an unknown refresh token', async () => {
    const { error } = await client().auth.refreshSession({
      refresh_token: 'no-such-token-' + uniqueEmail(),
    });
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('signs out: the session ends, its refresh token and access token are refused', async () => {
    const { client: c, session } = await signUp();
    const { error } = await c.auth.signOut();
    expect(error).toBeNull();

    // GoTrue deletes the session and, with it, its refresh tokens.
    const refresh = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.data.session).toBeNull();
    expect(refresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const raw = await authFetch('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: session.refresh_token }),
    });
    expect(raw).toMatchObject({
      status: 400,
      body: {
        code: 'refresh_token_not_found',
        message: 'Invalid Refresh Token: Refresh Token Not Found',
      },
    });

    const me = await client().auth.getUser(session.access_token);
    expect(me.data.user).toBeNull();
    expect(isAuthSessionMissingError(me.error)).toBe(true);
    const rawMe = await authFetch('/user', { bearer: session.access_token });
    expect(rawMe).toMatchObject({ status: 403, body: { code: 'session_not_found' } });

    // Signing out again with the dead token is refused (supabase-js ignores 403 and clears locally).
    expect(
      (await authFetch('/logout', { method: 'POST', bearer: session.access_token })).status,
    ).toBe(403);
  });

  it('signs out of this device, or of the others, on request', async () => {
    const { email } = await signUp();
    const sessions: Session[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await client().auth.signInWithPassword({ email, password: PASSWORD });
      sessions.push(data.session!);
    }
    const [a, b, c] = sessions as [Session, Session, Session];
    expect(
      (await authFetch('/logout?scope=others', { method: 'POST', bearer: a.access_token })).status,
    ).toBe(204);
    expect((await authFetch('/user', { bearer: a.access_token })).status).toBe(200);
    expect((await authFetch('/user', { bearer: b.access_token })).status).toBe(403);
    expect((await authFetch('/user', { bearer: c.access_token })).status).toBe(403);

    const d = (await client().auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
    expect(
      (await authFetch('/logout?scope=local', { method: 'POST', bearer: a.access_token })).status,
    ).toBe(204);
    expect((await authFetch('/user', { bearer: a.access_token })).status).toBe(403);
    expect((await authFetch('/user', { bearer: d.access_token })).status).toBe(200);

    expect(
      (await authFetch('/logout?scope=everywhere', { method: 'POST', bearer: d.access_token }))
        .body,
    ).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('refuses requests without a bearer token, with a bad one, or for a deleted user', async () => {
    const missing = await fetch(`${testStack().apiUrl}/auth/v1/user`, {
      headers: { apikey: testStack().anonKey, authorization: '' },
    });
    // The gateway turns the API key into the bearer token; the anon key has no user.
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({
      error_code: 'bad_jwt',
      msg: 'invalid claim: missing sub claim',
    });

    const noBearer = await authFetch('/user', { headers: { authorization: 'Basic abc' } });
    expect(noBearer).toMatchObject({ status: 401, body: { code: 'no_authorization' } });

    const { session, user } = await signUp();
    await admin().auth.admin.deleteUser(user.id);
    const gone = await authFetch('/user', { bearer: session.access_token });
    expect(gone).toMatchObject({ status: 403, body: { code: 'user_not_found' } });
  });
});

describe('access tokens', () => {
  async function forged(session: Session) {
    const stack = testStack();
    const claims = decodeJwt<Record<string, unknown>>(session.access_token);
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt({ ...claims, iat: now - 7200, exp: now - 3600 }, stack.jwtSecret);
    const [header, , signature] = session.access_token.split('.');
    const payload = Buffer.from(
      JSON.stringify({ ...claims, app_metadata: { role: 'admin' } }),
    ).toString('base64url');
    const tampered = `${header}.${payload}.${signature}`;
    const wrongKey = signJwt(claims, 'another-secret-that-is-at-least-32-characters');
    return { expired, tampered, wrongKey };
  }

  it('refuses an expired, tampered or foreign-signed token at /auth/v1/user', async () => {
    const { session } = await signUp();
    const tokens = await forged(session);
    for (const [name, token] of Object.entries(tokens)) {
      const res = await authFetch('/user', { bearer: token });
      expect(res.status, name).toBe(403);
      expect(res.body, name).toMatchObject({ code: 'bad_jwt' });
      expect(String(res.body?.message), name).toMatch(
        /^invalid JWT: unable to parse or verify signature, /,
      );
    }
    const expired = await client().auth.getUser(tokens.expired);
    expect(expired.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    expect((await authFetch('/user', { bearer: session.access_token })).status).toBe(200);
  });

  it('refuses an expired, tampered or foreign-signed token at PostgREST', async () => {
    const { session } = await signUp();
    const stack = testStack();
    const call = (token: string) =>
      fetch(`${stack.apiUrl}/rest/v1/`, {
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
      });
    expect((await call(session.access_token)).status).toBe(200);
    for (const [name, token] of Object.entries(await forged(session))) {
      const res = await call(token);
      expect(res.status, name).toBe(401);
      expect((await res.json()) as { code: string }, name).toMatchObject({
        code: expect.stringMatching(/^PGRST30/),
      });
    }
  });
});

describe('password change', () => {
  it('sets a new password that meets the policy, ends the other sessions, and the old one stops working', async () => {
    const { client: c, email, session } = await signUp();
    const other = (await client().auth.signInWithPassword({ email, password: PASSWORD })).data
      .session!;

    const weak = await c.auth.updateUser({ password: 'alllower1!' });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    expect(weak.error).toMatchObject({ status: 422, reasons: ['characters'] });
    const same = await c.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });

    const changed = await c.auth.updateUser({ password: 'Nouveau-mdp2?' });
    expect(changed.error).toBeNull();
    expect((await authFetch('/user', { bearer: session.access_token })).status).toBe(200);
    expect((await authFetch('/user', { bearer: other.access_token })).status).toBe(403);

    const old = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error).toMatchObject({ code: 'invalid_credentials' });
    const fresh = await client().auth.signInWithPassword({ email, password: 'Nouveau-mdp2?' });
    expect(fresh.error).toBeNull();
  });

  it('changes the email only once a link mailed to it is opened (GoTrue: never at once) and refuses a taken one', async () => {
    const { client: c, email: before } = await signUp();
    const taken = await signUp();
    const clash = await c.auth.updateUser({ email: taken.email });
    expect(clash.error).toMatchObject({ status: 422, code: 'email_exists' });
    const next = uniqueEmail('moved');
    const asked = await c.auth.updateUser(
      { email: next.toUpperCase() },
      { emailRedirectTo: 'http://localhost:4173/?lang=en' },
    );
    expect(asked.error).toBeNull();
    expect(asked.data.user?.email).toBe(before);
    expect(asked.data.user?.new_email).toBe(next);
    // double_confirm_changes: a mail to each address; with confirmation off (this stack), either
    // link is enough, as in GoTrue with autoconfirm.
    const toOld = await waitForMailAt(testStack().mailboxUrl, before);
    expect(toOld.subject).toBe('Kiraa: confirm the change of your email address');
    const toNew = await waitForMailAt(testStack().mailboxUrl, next);
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(toNew.text)![0];
    expect(new URL(link).searchParams.get('type')).toBe('email_change');
    const opened = await fetch(link, { redirect: 'manual' });
    expect(new URL(opened.headers.get('location')!).hash).toContain('type=email_change');
    const [row] = await sql<{ email: string; identity: string }>(
      `select u.email, i.identity_data ->> 'email' as identity
         from auth.users u join auth.identities i on i.user_id = u.id where u.email = $1`,
      [next],
    );
    expect(row).toEqual({ email: next, identity: next });
    expect(
      (await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error,
    ).toBeNull();
  });
});

describe('rate limits', () => {
  it('refuses an account after 10 failed passwords in 15 minutes, from any address, even the right password (Password Verification Attempt hook)', async () => {
    const { email } = await signUp();
    for (let i = 0; i < 10; i++) {
      // Each guess from its own address: a per-address limit would never see them.
      const { error } = await client({ ip: freshIp() }).auth.signInWithPassword({
        email,
        password: `Wrong-pass${i}!`,
      });
      expect(error, `attempt ${i + 1}`).toMatchObject({ status: 400, code: 'invalid_credentials' });
    }
    const blocked = await client({ ip: freshIp() }).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(blocked.data.session).toBeNull();
    // GoTrue's answer to the hook's rejection: 400 invalid_credentials with the hook's message.
    expect(blocked.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Too many failed sign-ins for this account: try again in 15 minutes.',
    });
    const [row] = await sql<{ n: number }>(
      `select count(*)::int as n from internal.password_failures f
         join auth.users u on u.id = f.user_id where u.email = $1`,
      [email],
    );
    expect(row?.n).toBe(10);
    // Once the window has passed, the right password works again and clears the count.
    await sql(
      `update internal.password_failures set failed_at = now() - interval '16 minutes'
        where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
  });

  it('takes password sign-ins and refreshes from one limiter per address: 150 per 5 minutes (GoTrue token limiter)', async () => {
    const ip = freshIp();
    const c = client({ ip });
    const { email } = await signUp();
    // One failure and one success count as GoTrue counts them: every password grant.
    const wrong = await c.auth.signInWithPassword({ email, password: 'Wrong-pass1!' });
    expect(wrong.error).toMatchObject({ code: 'invalid_credentials' });
    const signedIn = await c.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    let refreshToken = signedIn.data.session!.refresh_token;
    for (let i = 0; i < 148; i++) {
      const { data, error } = await c.auth.refreshSession({ refresh_token: refreshToken });
      expect(error, `refresh ${i + 1}`).toBeNull();
      refreshToken = data.session!.refresh_token;
    }
    const blocked = await c.auth.signInWithPassword({ email, password: PASSWORD });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const refresh = await c.auth.refreshSession({ refresh_token: refreshToken });
    expect(refresh.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    // Sign-ups take from their own limiter (sign_in_sign_ups), other addresses from theirs.
    expect(
      (await client({ ip: freshIp() }).auth.signInWithPassword({ email, password: PASSWORD }))
        .error,
    ).toBeNull();
  });

  it('refuses sign-ups with 429 after 30 from one address', async () => {
    const c = client({ ip: freshIp() });
    for (let i = 0; i < 30; i++) {
      // Invalid requests count too (they still probe the API), and cost no bcrypt here.
      const { error } = await c.auth.signUp({ email: uniqueEmail('flood'), password: 'weak' });
      expect(error, `sign-up ${i + 1}`).toMatchObject({ code: 'weak_password' });
    }
    const blocked = await c.auth.signUp({ email: uniqueEmail('flood'), password: PASSWORD });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const other = await client({ ip: freshIp() }).auth.signUp({
      email: uniqueEmail('flood'),
      password: PASSWORD,
      options: { data: PROFILE },
    });
    expect(other.error).toBeNull();
  });
});

describe('service endpoints', () => {
  it('answers /health, /settings and the JWKS', async () => {
    expect(await authFetch('/health')).toMatchObject({ status: 200, body: { name: 'GoTrue' } });
    expect(await authFetch('/settings')).toMatchObject({
      status: 200,
      body: {
        external: { email: true, phone: false },
        disable_signup: false,
        mailer_autoconfirm: true,
      },
    });
    // One ES256 key (tests/api/signing-keys.test.ts checks its shape and rotations).
    expect(await authFetch('/.well-known/jwks.json')).toEqual(
      expect.objectContaining({
        status: 200,
        body: { keys: [expect.objectContaining({ kty: 'EC', alg: 'ES256' })] },
      }),
    );
    expect(await authFetch('/nope')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    // GoTrue's answer to a PKCE exchange without code and verifier (tests/api/auth-pkce.test.ts).
    expect(await authFetch('/token?grant_type=pkce', { method: 'POST', body: '{}' })).toMatchObject(
      {
        status: 400,
        body: { code: 'validation_failed' },
      },
    );
    expect(await authFetch('/signup', { method: 'POST', body: '{not json' })).toMatchObject({
      status: 400,
      body: { code: 'bad_json' },
    });
  });

  it('answers errors in the pre-2024 shape to clients that do not name an API version', async () => {
    const stack = testStack();
    const res = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });
});

describe('admin API', () => {
  it('refuses a user token, the anon key and no token with not_admin / no_authorization', async () => {
    const { session } = await signUp();
    const asUser = client({ bearer: session.access_token });
    const listed = await asUser.auth.admin.listUsers();
    expect(listed.error).toMatchObject({
      status: 403,
      code: 'not_admin',
      message: 'User not allowed',
    });
    const created = await asUser.auth.admin.createUser({
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(created.error).toMatchObject({ status: 403, code: 'not_admin' });
    const asAnon = await client().auth.admin.getUserById(decodeJwt(session.access_token).sub!);
    expect(asAnon.error).toMatchObject({ status: 403, code: 'not_admin' });
    const link = await client({ bearer: session.access_token }).auth.admin.generateLink({
      type: 'recovery',
      email: uniqueEmail(),
    });
    expect(link.error).toMatchObject({ status: 403, code: 'not_admin' });
    const noToken = await authFetch('/admin/users', { headers: { authorization: 'Basic abc' } });
    expect(noToken).toMatchObject({ status: 401, body: { code: 'no_authorization' } });
  });

  it('creates, reads, updates, bans and deletes users with the service key', async () => {
    const api = admin().auth.admin;
    const email = uniqueEmail('admin-made');
    const created = await api.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: PROFILE,
      app_metadata: { plan: 'fleet' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user).toMatchObject({
      email,
      user_metadata: { ...PROFILE, email_verified: true },
      app_metadata: { plan: 'fleet', provider: 'email', providers: ['email'], role: 'user' },
    });
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect((await api.createUser({ email, password: PASSWORD })).error).toMatchObject({
      status: 422,
      code: 'email_exists',
    });
    expect((await api.createUser({ email: uniqueEmail(), password: 'weak' })).error).toMatchObject({
      status: 422,
      code: 'weak_password',
    });

    const read = await api.getUserById(id);
    expect(read.data.user?.email).toBe(email);

    const updated = await api.updateUserById(id, {
      password: 'Admin-set1!',
      user_metadata: { name: 'Renamed' },
      app_metadata: { plan: null },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({
      name: 'Renamed',
      phone: PROFILE.phone,
    });
    expect(updated.data.user?.app_metadata).not.toHaveProperty('plan');
    const signedIn = await client().auth.signInWithPassword({ email, password: 'Admin-set1!' });
    expect(signedIn.error).toBeNull();

    const banned = await api.updateUserById(id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    expect(Date.parse(banned.data.user!.banned_until!)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await authFetch('/user', { bearer: signedIn.data.session!.access_token })).status).toBe(
      403,
    );
    const refused = await client().auth.signInWithPassword({ email, password: 'Admin-set1!' });
    expect(refused.error).toMatchObject({ status: 400, code: 'user_banned' });
    expect((await api.updateUserById(id, { ban_duration: 'none' })).error).toBeNull();
    expect(
      (await client().auth.signInWithPassword({ email, password: 'Admin-set1!' })).error,
    ).toBeNull();

    const deleted = await api.deleteUser(id);
    expect(deleted.error).toBeNull();
    expect((await api.getUserById(id)).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
    expect(await sql(`select 1 from public.profiles where id = $1`, [id])).toHaveLength(0);
    expect(
      (await client().auth.signInWithPassword({ email, password: 'Admin-set1!' })).error,
    ).toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('soft-deletes a user: the row stays, anonymised, and can no longer sign in', async () => {
    const { email, user } = await signUp();
    const { error } = await admin().auth.admin.deleteUser(user.id, true);
    expect(error).toBeNull();
    const [row] = await sql(
      `select email, deleted_at is not null as deleted from auth.users where id = $1`,
      [user.id],
    );
    expect(row).toEqual({ email: null, deleted: true });
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({
      code: 'invalid_credentials',
    });
    // The address is free again.
    expect(
      (await client().auth.signUp({ email, password: PASSWORD, options: { data: PROFILE } })).error,
    ).toBeNull();
  });

  it('lists users newest first, paginated like GoTrue', async () => {
    const api = admin().auth.admin;
    const newest: string[] = [];
    for (let i = 0; i < 3; i++) newest.unshift((await signUp()).user.id);
    const [{ total }] = (await sql<{ total: number }>(
      `select count(*)::int as total from auth.users`,
    )) as [{ total: number }];

    const page1 = await api.listUsers({ page: 1, perPage: 2 });
    expect(page1.error).toBeNull();
    expect(page1.data.users.map((u) => u.id)).toEqual(newest.slice(0, 2));
    expect(page1.data).toMatchObject({ total, nextPage: 2 });
    const page2 = await api.listUsers({ page: 2, perPage: 2 });
    expect(page2.data.users[0]?.id).toBe(newest[2]);

    const res = await fetch(`${testStack().apiUrl}/auth/v1/admin/users?page=1&per_page=2`, {
      headers: {
        apikey: testStack().serviceRoleKey,
        authorization: `Bearer ${testStack().serviceRoleKey}`,
      },
    });
    expect(res.headers.get('x-total-count')).toBe(String(total));
    expect(res.headers.get('link')).toBe(
      `<${testStack().apiUrl}/auth/v1/admin/users?page=2&per_page=2>; rel="next", ` +
        `<${testStack().apiUrl}/auth/v1/admin/users?page=${Math.ceil(total / 2)}&per_page=2>; rel="last"`,
    );
    expect(((await res.json()) as { aud: string }).aud).toBe('authenticated');
  });
});
