/**
 * PKCE for the mail links (docs/auth.md, "PKCE") through supabase-js with `flowType: 'pkce'`, on
 * a stack of its own with e-mail confirmation on (the sign-up link too): the mail's link answers
 * `redirect_to?code=…`, `exchangeCodeForSession` turns it into a session with the verifier the
 * client kept; a wrong verifier, a used code and an expired flow are refused as by GoTrue.
 */
import { randomInt } from 'node:crypto';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestStack, type TestStack } from '../support/stack.ts';
import { parseAuthMail, uniqueEmail, waitForMailAt } from '../support/supabase.ts';

const PASSWORD = 'Kiraa-test1!';
const PROFILE = { name: 'Yasmine Hadj', phone: '+213550333444', age: 31, address: 'Annaba' };
const APP = 'http://localhost:4173';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ settings: { auth: { email: { enableConfirmations: true } } } });
});
afterAll(() => stack?.stop());

/** Where supabase-js keeps the session and the PKCE verifier (a browser's localStorage). */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

/** A browser-like client using PKCE, from its own address (the mail limits count per IP). */
function pkceClient(): SupabaseClient {
  const ip = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  return createClient(stack.apiUrl, stack.anonKey, {
    auth: {
      flowType: 'pkce',
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: new MemoryStorage(),
    },
    global: { headers: { 'x-forwarded-for': ip } },
    realtime: { transport: class {} as never },
  });
}

const client = pkceClient;

async function sql(text: string, params: unknown[] = []) {
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    return (await db.query(text, params)).rows;
  } finally {
    await db.end();
  }
}

/** Follows the mail's link as a browser would, without following the redirect. */
async function openLink(email: string, subject: RegExp): Promise<URL> {
  const mail = await waitForMailAt(stack.mailboxUrl, email, (m) => subject.test(m.subject));
  const { link } = parseAuthMail(mail.text);
  expect(link.searchParams.get('token')).toMatch(/^pkce_/);
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

async function confirmedUser(): Promise<string> {
  const email = uniqueEmail('pkce');
  const admin = createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: class {} as never },
  });
  const { error } = await admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: PROFILE,
  });
  expect(error).toBeNull();
  return email;
}

describe('PKCE mail links', () => {
  it('recovery: the link brings ?code=, the client that asked exchanges it once', async () => {
    const email = await confirmedUser();
    const app = client();
    const asked = await app.auth.resetPasswordForEmail(email, {
      redirectTo: `${APP}/reset-password`,
    });
    expect(asked.error).toBeNull();
    const back = await openLink(email, /./);
    expect(back.origin + back.pathname).toBe(`${APP}/reset-password`);
    expect(back.hash).toBe('');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    // Another client (another verifier) cannot use the code …
    const thief = client();
    await thief.auth.resetPasswordForEmail(uniqueEmail('other'));
    const stolen = await thief.auth.exchangeCodeForSession(code);
    expect(stolen.error).toMatchObject({ status: 400, code: 'bad_code_verifier' });

    // … the one that asked can, once.
    const { data, error } = await app.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    const me = await app.auth.getUser();
    expect(me.data.user?.email).toBe(email);

    const again = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('sign-in code by mail and sign-up confirmation links work the same way', async () => {
    const email = await confirmedUser();
    const app = client();
    expect(
      (
        await app.auth.signInWithOtp({
          email,
          options: { shouldCreateUser: false, emailRedirectTo: `${APP}/` },
        })
      ).error,
    ).toBeNull();
    const back = await openLink(email, /./);
    const signedIn = await app.auth.exchangeCodeForSession(back.searchParams.get('code')!);
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.email).toBe(email);

    const newcomer = uniqueEmail('pkce-signup');
    const fresh = client();
    const signUp = await fresh.auth.signUp({
      email: newcomer,
      password: PASSWORD,
      options: { data: PROFILE, emailRedirectTo: `${APP}/welcome` },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    const confirmed = await openLink(newcomer, /./);
    expect(confirmed.pathname).toBe('/welcome');
    const session = await fresh.auth.exchangeCodeForSession(confirmed.searchParams.get('code')!);
    expect(session.error).toBeNull();
    expect(session.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('refuses an expired flow, and PKCE parameters that GoTrue refuses', async () => {
    const email = await confirmedUser();
    const app = client();
    await app.auth.resetPasswordForEmail(email, { redirectTo: `${APP}/reset-password` });
    const code = (await openLink(email, /./)).searchParams.get('code')!;
    await sql(
      `update auth.flow_state set created_at = now() - interval '301 seconds' where auth_code = $1`,
      [code],
    );
    const late = await app.auth.exchangeCodeForSession(code);
    expect(late.error).toMatchObject({ status: 422, code: 'flow_state_expired' });

    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${stack.apiUrl}/auth/v1${path}`, {
        method: 'POST',
        headers: {
          apikey: stack.anonKey,
          'content-type': 'application/json',
          'x-forwarded-for': '10.9.9.9',
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
      }));
    const target = uniqueEmail('pkce-bad');
    expect(await post('/recover', { email: target, code_challenge: 'a'.repeat(43) })).toMatchObject(
      {
        status: 400,
        body: { msg: 'PKCE flow requires code_challenge_method and code_challenge' },
      },
    );
    expect(
      await post('/otp', { email: target, code_challenge: 'short', code_challenge_method: 's256' }),
    ).toMatchObject({ status: 400, body: { error_code: 'validation_failed' } });
    expect(
      await post('/recover', {
        email: target,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'md5',
      }),
    ).toMatchObject({ status: 400, body: { error_code: 'validation_failed' } });
    expect(await post('/token?grant_type=pkce', { auth_code: code })).toMatchObject({
      status: 400,
      body: { msg: 'invalid request: both auth code and code verifier should be non-empty' },
    });
  });

  it('accepts the plain method, as GoTrue', async () => {
    const email = await confirmedUser();
    const verifier = 'v'.repeat(50);
    const res = await fetch(
      `${stack.apiUrl}/auth/v1/recover?redirect_to=${encodeURIComponent(`${APP}/reset-password`)}`,
      {
        method: 'POST',
        headers: {
          apikey: stack.anonKey,
          'content-type': 'application/json',
          'x-forwarded-for': '10.8.8.8',
        },
        body: JSON.stringify({ email, code_challenge: verifier, code_challenge_method: 'plain' }),
      },
    );
    expect(res.status).toBe(200);
    const code = (await openLink(email, /./)).searchParams.get('code')!;
    const token = await fetch(`${stack.apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
    });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ token_type: 'bearer', user: { email } });
  });
});
