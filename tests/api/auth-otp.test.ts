/**
 * Sign in with a code (POST /otp, supabase-js `signInWithOtp` + `verifyOtp({type: 'email'})`) and
 * POST /resend through supabase-js (supabase/local/auth/otp.ts): the mail's code, one use,
 * expiry, wrong codes, the per-address mail interval, `create_user`.
 */
import { describe, expect, it } from 'vitest';

import { decodeJwt } from '../../supabase/local/jwt.ts';
import { mailsTo, sql, uniqueEmail, waitForMail } from '../support/clients.ts';
import { newCustomer, randomIp, visitor } from '../support/fixtures.ts';
import { parseAuthMail } from '../support/supabase.ts';

const PROFILE = {
  name: 'Lina Bouzid',
  phone: '+213555000444',
  age: 31,
  address: '4 rue Hassiba Ben Bouali, Alger',
};

/** The code of the first mail to `email` sent since `after` (ms). */
async function codeMailed(email: string, after: number): Promise<string> {
  const mail = await waitForMail(email, (m) => Date.parse(m.createdAt) >= after - 1000);
  return parseAuthMail(mail.text).code;
}

describe('sign in with a code', () => {
  it('mails a code that signs a customer in once (amr otp), without the password', async () => {
    const { email } = await newCustomer();
    const client = visitor();
    const asked = Date.now();
    const sent = await client.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(sent.error).toBeNull();
    const code = await codeMailed(email, asked);
    expect(code).toMatch(/^\d{8}$/);
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    const claims = decodeJwt<{ amr: { method: string }[]; aal: string }>(
      data.session!.access_token,
    );
    expect(claims.amr[0]!.method).toBe('otp');
    expect(claims.aal).toBe('aal1');

    const again = await visitor().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('refuses a wrong or expired code, and after 5 wrong codes even the right one', async () => {
    const { email } = await newCustomer();
    const asked = Date.now();
    expect((await visitor().auth.signInWithOtp({ email })).error).toBeNull();
    const code = await codeMailed(email, asked);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    const first = await visitor().auth.verifyOtp({ email, token: wrong, type: 'email' });
    expect(first.error).toMatchObject({ status: 403, code: 'otp_expired' });

    // Past otp_expiry (1 hour): refused, and used up.
    await sql(
      `update auth.users set recovery_sent_at = now() - interval '61 minutes' where email = $1`,
      [email],
    );
    const late = await visitor().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(late.error).toMatchObject({ status: 403, code: 'otp_expired' });

    const other = await newCustomer();
    const at = Date.now();
    await visitor().auth.signInWithOtp({ email: other.email });
    const right = await codeMailed(other.email, at);
    const bad = right === '00000000' ? '11111111' : '00000000';
    for (let i = 0; i < 5; i += 1) {
      await visitor().auth.verifyOtp({ email: other.email, token: bad, type: 'email' });
    }
    const blocked = await visitor().auth.verifyOtp({
      email: other.email,
      token: right,
      type: 'email',
    });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('sends one mail per address per max_frequency', async () => {
    const { email } = await newCustomer();
    expect((await visitor().auth.signInWithOtp({ email })).error).toBeNull();
    const second = await visitor().auth.signInWithOtp({ email });
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });

  it('does not create an account when asked not to, and says so', async () => {
    const email = uniqueEmail('otp-none');
    const { error } = await visitor().auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled' });
    expect(await mailsTo(email)).toEqual([]);
  });

  it('opens an account for a new address with its profile; the code confirms and signs in', async () => {
    const email = uniqueEmail('otp-new');
    const client = visitor();
    const asked = Date.now();
    const sent = await client.auth.signInWithOtp({ email, options: { data: PROFILE } });
    expect(sent.error).toBeNull();
    const code = await codeMailed(email, asked);
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.user!.email_confirmed_at).toBeTruthy();
    const profile = await client.from('profiles').select('full_name').single();
    expect(profile.data).toEqual({ full_name: PROFILE.name });
  });

  it('refuses a new account whose profile the sign-up hook refuses, and creates nothing', async () => {
    const email = uniqueEmail('otp-bad');
    const { error } = await visitor().auth.signInWithOtp({
      email,
      options: { data: { ...PROFILE, age: 15 } },
    });
    expect(error).toMatchObject({ status: 422 });
    expect(await sql(`select 1 from auth.users where email = $1`, [email])).toEqual([]);
  });
});

describe('resend', () => {
  it('resends a sign-up confirmation within the mail interval only once, and tells nothing about unknown addresses', async () => {
    const email = uniqueEmail('otp-resend');
    await visitor(randomIp()).auth.signInWithOtp({ email, options: { data: PROFILE } });
    await waitForMail(email);
    const soon = await visitor().auth.resend({ type: 'signup', email });
    expect(soon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    const unknown = await visitor().auth.resend({ type: 'signup', email: uniqueEmail('nobody') });
    expect(unknown.error).toBeNull();
    const confirmed = await newCustomer();
    const none = await visitor().auth.resend({ type: 'signup', email: confirmed.email });
    expect(none.error).toBeNull();
    expect(await mailsTo(confirmed.email)).toEqual([]);
  });
});

describe('reauthenticate', () => {
  it('lets a recent sign-in change the password without a code (secure_password_change: 24 h)', async () => {
    const { client } = await newCustomer();
    expect((await client.auth.updateUser({ password: 'Recent-mdp5!' })).error).toBeNull();
  });

  it('mails a code that a password change from a day-old session must carry as nonce, once', async () => {
    const { client, email, id } = await newCustomer();
    // The session was opened more than 24 hours ago (GoTrue's window).
    await sql(
      `update auth.sessions set created_at = now() - interval '25 hours' where user_id = $1`,
      [id],
    );
    const without = await client.auth.updateUser({ password: 'Autre-mdp3!' });
    expect(without.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const asked = Date.now();
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await waitForMail(email, (m) => Date.parse(m.createdAt) >= asked - 1000);
    const nonce = /\b(\d{8})\b/.exec(mail.text)![1]!;
    const wrong = await client.auth.updateUser({
      password: 'Autre-mdp3!',
      nonce: nonce === '00000000' ? '11111111' : '00000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const changed = await client.auth.updateUser({ password: 'Autre-mdp3!', nonce });
    expect(changed.error).toBeNull();
    const reused = await client.auth.updateUser({ password: 'Encore-mdp4!', nonce });
    expect(reused.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const again = await client.auth.reauthenticate();
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });
});
