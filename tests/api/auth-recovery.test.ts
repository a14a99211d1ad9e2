/**
 * Password recovery end to end, against the run's real stack: resetPasswordForEmail → the mail in
 * the dev mailbox → the link (GET /verify, a 303 to the app's /reset-password with the session in
 * the fragment) or the code / token hash (POST /verify) → updateUser({ password }) → the new
 * password works and the old one does not. Links and codes are single-use and expire.
 */
import { randomInt } from 'node:crypto';

import {
  createClient,
  isAuthApiError,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';

import { decodeJwt } from '../../supabase/local/jwt.ts';
import { mailsTo, sql, testStack, uniqueEmail, waitForMail } from '../support/clients.ts';
import { parseAuthMail } from '../support/supabase.ts';

const PASSWORD = 'Kiraa-test1!';
const NEW_PASSWORD = 'Nouveau-mdp2?';
const PROFILE = {
  name: 'Lina Saadi',
  phone: '+213661000222',
  age: 31,
  address: '7 rue Hassiba Ben Bouali, Alger',
};
/** The test stack's app (its site URL): where recovery links land. */
const APP = 'http://localhost:4173';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

function client(headers: Record<string, string> = {}): SupabaseClient {
  const stack = testStack();
  return createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': freshIp(), ...headers } },
    realtime: { transport: NoRealtime as never },
  });
}

const admin = () => {
  const stack = testStack();
  return createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
  }).auth.admin;
};

/** A private client address per client, so per-IP limits of other tests never interfere. */
function freshIp(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

async function newUser(): Promise<{ email: string; session: Session }> {
  const email = uniqueEmail('recovery');
  const { data, error } = await client().auth.signUp({
    email,
    password: PASSWORD,
    options: { data: PROFILE },
  });
  expect(error).toBeNull();
  return { email, session: data.session! };
}

/** Follows a recovery link as a browser does (no API key), without following the redirect. */
async function openLink(
  link: URL,
): Promise<{ status: number; location: URL; fragment: URLSearchParams }> {
  const res = await fetch(link, { redirect: 'manual' });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  return { status: res.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

async function expectPasswordWorks(email: string, password: string, works: boolean): Promise<void> {
  const { data, error } = await client().auth.signInWithPassword({ email, password });
  if (works) {
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
  } else {
    expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  }
}

describe('password recovery by mail', () => {
  it('mails a link that signs the user in on /reset-password, where a new password is set', async () => {
    const { email, session: before } = await newUser();
    const c = client();
    const requested = await c.auth.resetPasswordForEmail(email, {
      redirectTo: `${APP}/reset-password`,
    });
    expect(requested.error).toBeNull();

    const mail = await waitForMail(email);
    expect(mail.subject).toBe('Kiraa : réinitialisation de votre mot de passe');
    // The greeting names nobody: an auth mail holds nothing a requester typed.
    expect(mail.text.split('\n')[0]).toBe('Bonjour,');
    expect(mail.text).not.toContain('Lina');
    expect(mail.text).toContain('valable 1 heure');
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
    const { link, code } = parseAuthMail(mail.text);
    expect(link.origin).toBe(testStack().apiUrl);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('redirect_to')).toBe(`${APP}/reset-password`);
    expect(code).toMatch(/^\d{8}$/);

    // Only hashes are stored.
    const token = link.searchParams.get('token')!;
    const stored = await sql<{ token_hash: string }>(
      `select t.token_hash from auth.one_time_tokens t join auth.users u on u.id = t.user_id
        where u.email = $1 and t.token_type = 'recovery_token'`,
      [email],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toBe(token);
    expect(
      JSON.stringify(await sql(`select * from auth.users where email = $1`, [email])),
    ).not.toContain(code);

    const opened = await openLink(link);
    expect(opened.status).toBe(303);
    expect(`${opened.location.origin}${opened.location.pathname}`).toBe(`${APP}/reset-password`);
    expect(opened.fragment.get('type')).toBe('recovery');
    expect(opened.fragment.get('token_type')).toBe('bearer');
    expect(Number(opened.fragment.get('expires_in'))).toBe(3600);
    expect(Number(opened.fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    const accessToken = opened.fragment.get('access_token')!;
    const refreshToken = opened.fragment.get('refresh_token')!;
    expect(decodeJwt(accessToken)).toMatchObject({
      email,
      amr: [{ method: 'otp', timestamp: expect.any(Number) }],
    });

    // What the app does on /reset-password: take the session from the URL, then set the password.
    const app = client();
    const restored = await app.auth.setSession({
      access_token: accessToken,
      refresh_token: refreshToken,
    });
    expect(restored.error).toBeNull();
    const weak = await app.auth.updateUser({ password: 'motdepasse' });
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['characters'],
    });
    const updated = await app.auth.updateUser({ password: NEW_PASSWORD });
    expect(updated.error).toBeNull();

    await expectPasswordWorks(email, NEW_PASSWORD, true);
    await expectPasswordWorks(email, PASSWORD, false);
    // The sessions opened before the recovery (maybe on a lost phone) are over.
    expect((await client().auth.getUser(before.access_token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect((await app.auth.getUser()).error).toBeNull();

    // The link was single-use.
    const again = await openLink(link);
    expect(again.status).toBe(303);
    expect(`${again.location.origin}${again.location.pathname}`).toBe(`${APP}/reset-password`);
    expect(Object.fromEntries(again.fragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    // And so is the code of the same mail.
    const viaCode = await client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(viaCode.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('signs the user in with the 8-digit code of the mail (config.toml otp_length), once', async () => {
    const { email } = await newUser();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { code, link } = parseAuthMail((await waitForMail(email)).text);
    // Without redirectTo the link still leads to the app's reset page.
    expect(link.searchParams.get('redirect_to')).toBe(`${APP}/reset-password`);

    const c = client();
    const verified = await c.auth.verifyOtp({
      email: email.toUpperCase(),
      token: code,
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect((await c.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    await expectPasswordWorks(email, NEW_PASSWORD, true);

    const reused = await client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(reused.data.session).toBeNull();
    expect(reused.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    expect((await openLink(link)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('accepts the token hash of the link through verifyOtp, once', async () => {
    const { email } = await newUser();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { link } = parseAuthMail((await waitForMail(email)).text);
    const tokenHash = link.searchParams.get('token')!;

    const verified = await client().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
    const reused = await client().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(isAuthApiError(reused.error)).toBe(true);
    expect(reused.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
  });

  it('refuses an expired link or code, and consumes it', async () => {
    const { email } = await newUser();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { link, code } = parseAuthMail((await waitForMail(email)).text);
    // Sent 61 minutes ago: past the 1-hour lifetime.
    await sql(
      `update auth.users set recovery_sent_at = now() - interval '61 minutes' where email = $1`,
      [email],
    );

    const expiredCode = await client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(expiredCode.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const opened = await openLink(link);
    expect(opened.fragment.get('error_code')).toBe('otp_expired');
    expect(opened.fragment.has('access_token')).toBe(false);
    expect(
      await sql(
        `select 1 from auth.one_time_tokens t join auth.users u on u.id = t.user_id where u.email = $1`,
        [email],
      ),
    ).toHaveLength(0);
    await expectPasswordWorks(email, PASSWORD, true);
  });

  it('refuses wrong codes, and after 5 of them every code for the address for a while', async () => {
    const { email } = await newUser();
    expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const { code } = parseAuthMail((await waitForMail(email)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const { error } = await client().auth.verifyOtp({ email, token: wrong, type: 'recovery' });
      expect(error, `attempt ${i + 1}`).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const blocked = await client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('sends at most one mail per address and minute, says nothing about unknown addresses, and checks the format', async () => {
    const { email } = await newUser();
    const c = client();
    expect((await c.auth.resetPasswordForEmail(email)).error).toBeNull();
    const second = await c.auth.resetPasswordForEmail(email);
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(second.error?.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );
    await waitForMail(email);
    expect(await mailsTo(email)).toHaveLength(1);

    const stranger = uniqueEmail('stranger');
    const unknown = await c.auth.resetPasswordForEmail(stranger);
    expect(unknown).toEqual({ data: {}, error: null });
    expect(await mailsTo(stranger)).toHaveLength(0);

    const malformed = await c.auth.resetPasswordForEmail('not-an-email');
    expect(malformed.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('writes the mail in the language the app asks for, never the browser’s (as on hosted)', async () => {
    // The redirect's lang= decides (the app sends its locale there), whatever the browser says.
    const arabic = await newUser();
    await client({ 'accept-language': 'en-GB,en;q=0.9' }).auth.resetPasswordForEmail(arabic.email, {
      redirectTo: `${APP}/reset-password?lang=ar`,
    });
    const ar = await waitForMail(arabic.email);
    expect(ar.subject).toBe('كراء: إعادة تعيين كلمة المرور');
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
    expect(parseAuthMail(ar.text).code).toMatch(/^\d{8}$/);

    // Without lang= the user's saved locale, then French: a Send Email hook (what a hosted
    // project runs) never sees the request's Accept-Language, so the local service ignores it.
    const english = uniqueEmail('recovery');
    const signedUp = await client().auth.signUp({
      email: english,
      password: PASSWORD,
      options: { data: { ...PROFILE, locale: 'en' } },
    });
    expect(signedUp.error).toBeNull();
    await client({ 'accept-language': 'ar-DZ,ar;q=0.9' }).auth.resetPasswordForEmail(english);
    expect((await waitForMail(english)).subject).toBe('Kiraa: reset your password');

    const french = await newUser();
    await client({ 'accept-language': 'ar-DZ,ar;q=0.9' }).auth.resetPasswordForEmail(french.email);
    const fr = await waitForMail(french.email);
    expect(fr.subject).toBe('Kiraa : réinitialisation de votre mot de passe');
    expect(fr.html).toContain('<html lang="fr" dir="ltr">');
  });

  it('lands only on the app: a foreign redirect_to falls back to /reset-password', async () => {
    const { email } = await newUser();
    await client().auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' });
    const { link } = parseAuthMail((await waitForMail(email)).text);
    expect(link.searchParams.get('redirect_to')).toBe(`${APP}/reset-password`);

    // A link altered by hand lands on the app too, never on the foreign site.
    link.searchParams.set('redirect_to', 'https://evil.example/steal');
    const opened = await openLink(link);
    expect(opened.location.origin).toBe(APP);
    expect(opened.fragment.get('type')).toBe('recovery');

    // Another page of the app is fine.
    const other = await admin().generateLink({
      type: 'recovery',
      email,
      options: { redirectTo: `${APP}/sign-in` },
    });
    expect(other.data.properties?.redirect_to).toBe(`${APP}/sign-in`);
  });
});

describe('recovery links from the admin API', () => {
  it('generates a link and code without a mail; a newer link replaces the older one', async () => {
    const { email } = await newUser();
    const first = await admin().generateLink({ type: 'recovery', email });
    expect(first.error).toBeNull();
    expect(first.data.user?.email).toBe(email);
    expect(first.data.properties).toMatchObject({
      verification_type: 'recovery',
      redirect_to: `${APP}/reset-password`,
      email_otp: expect.stringMatching(/^\d{8}$/),
      hashed_token: expect.any(String),
      action_link: expect.stringContaining('/auth/v1/verify?token='),
    });
    expect(await mailsTo(email)).toHaveLength(0);

    const second = await admin().generateLink({ type: 'recovery', email });
    const old = await openLink(new URL(first.data.properties!.action_link));
    expect(old.fragment.get('error_code')).toBe('otp_expired');
    const current = await openLink(new URL(second.data.properties!.action_link));
    expect(current.fragment.get('type')).toBe('recovery');
    expect(current.fragment.get('access_token')).toBeTruthy();
  });

  it('answers user_not_found for an unknown address and refuses other link types', async () => {
    const unknown = await admin().generateLink({ type: 'recovery', email: uniqueEmail('ghost') });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const magic = await admin().generateLink({ type: 'magiclink', email: uniqueEmail('ghost') });
    expect(magic.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});
