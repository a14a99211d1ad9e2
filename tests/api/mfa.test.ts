/**
 * MFA with TOTP through supabase-js (supabase/local/auth/mfa.ts, GoTrue's shapes) and the staff
 * rule built on it (supabase/migrations/…300000_staff_aal2.sql): staff act only at aal2. Codes
 * come from the pinned `otpauth` package, never from the server's own TOTP code.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';

import { decodeJwt } from '../../supabase/local/jwt.ts';
import { serviceClient, sql } from '../support/clients.ts';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  SEED,
  apiClient,
  expectCode,
  newCustomer,
  randomIp,
  signedIn,
  type Customer,
} from '../support/fixtures.ts';
import { totpCode } from '../support/mfa.ts';

type Claims = { aal?: string; amr?: { method: string }[]; session_id?: string };

async function claimsOf(client: SupabaseClient): Promise<Claims> {
  const { data } = await client.auth.getSession();
  return decodeJwt<Claims>(data.session!.access_token);
}

/** Enrols a TOTP factor for `client` and returns its id and secret (still unverified). */
async function enrol(client: SupabaseClient, friendlyName = 'Téléphone') {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  expect(error).toBeNull();
  return { id: data!.id, secret: data!.totp.secret, data: data! };
}

async function verify(client: SupabaseClient, factorId: string, code: string) {
  const challenge = await client.auth.mfa.challenge({ factorId });
  expect(challenge.error).toBeNull();
  return client.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code });
}

/** A new customer with a verified TOTP factor, at aal2. */
async function withFactor(): Promise<Customer & { factorId: string; secret: string }> {
  const customer = await newCustomer();
  const factor = await enrol(customer.client);
  const verified = await verify(customer.client, factor.id, totpCode(factor.secret));
  expect(verified.error).toBeNull();
  return { ...customer, factorId: factor.id, secret: factor.secret };
}

/** A wrong code that is not the current one, nor the one before or after. */
function wrongCode(secret: string): string {
  const near = [-30_000, 0, 30_000].map((d) => totpCode(secret, Date.now() + d));
  let code = '000000';
  for (let n = 0; near.includes(code); n += 1) code = String(n).padStart(6, '0');
  return code;
}

describe('TOTP enrolment, challenge and verify', () => {
  it("enrols with GoTrue's shape: an SVG QR code from the server, the secret and the URI", async () => {
    const { client, email } = await newCustomer();
    const { data } = await enrol(client, 'Mon téléphone');
    expect(data).toMatchObject({ type: 'totp', friendly_name: 'Mon téléphone' });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    // supabase-js turns the server's SVG into a data URI an <img> shows.
    expect(data.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);
    expect(data.totp.qr_code).toContain('</svg>');
    const uri = new URL(data.totp.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toContain(`:${email}`);
    expect(uri.searchParams.get('secret')).toBe(data.totp.secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    // Unverified: listed as such, and the session stays at aal1 with nothing more to reach.
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data!.all).toEqual([
      expect.objectContaining({ id: data.id, status: 'unverified', factor_type: 'totp' }),
    ]);
    expect(factors.data!.totp).toEqual([]);
    expect((await claimsOf(client)).aal).toBe('aal1');
  });

  it('raises the session to aal2 (aal claim, amr with totp) and keeps it across a refresh', async () => {
    const { client } = await newCustomer();
    const factor = await enrol(client);
    const verified = await verify(client, factor.id, totpCode(factor.secret));
    expect(verified.error).toBeNull();
    const claims = await claimsOf(client);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr!.map((a) => a.method)).toEqual(['totp', 'password']);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const listed = await client.auth.mfa.listFactors();
    expect(listed.data!.totp).toEqual([expect.objectContaining({ id: factor.id })]);

    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt<Claims>(refreshed.data.session!.access_token).aal).toBe('aal2');
  });

  it('asks a user with a factor for it at the next sign-in (aal1, next level aal2)', async () => {
    const { email, secret } = await withFactor();
    const client = apiClient({ 'x-forwarded-for': randomIp() });
    const { error } = await client.auth.signInWithPassword({ email, password: 'Test-pass1!' });
    expect(error).toBeNull();
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const { data } = await client.auth.mfa.listFactors();
    const ok = await verify(client, data!.totp[0]!.id, totpCode(secret));
    expect(ok.error).toBeNull();
    expect((await claimsOf(client)).aal).toBe('aal2');
  });

  it('refuses a wrong code, a used or expired challenge and one verified from another address', async () => {
    const { client } = await newCustomer();
    const factor = await enrol(client);
    const wrong = await verify(client, factor.id, wrongCode(factor.secret));
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 290);
    const used = { factorId: factor.id, challengeId: challenge.data!.id };
    expect((await client.auth.mfa.verify({ ...used, code: totpCode(factor.secret) })).error).toBe(
      null,
    );
    const again = await client.auth.mfa.verify({ ...used, code: totpCode(factor.secret) });
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const old = await client.auth.mfa.challenge({ factorId: factor.id });
    await sql(
      `update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`,
      [old.data!.id],
    );
    const expired = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: old.data!.id,
      code: totpCode(factor.secret),
    });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });

    // The same session from another address: the challenge is bound to the one that asked.
    const { data: session } = await client.auth.getSession();
    const elsewhere = apiClient({ 'x-forwarded-for': randomIp() });
    await elsewhere.auth.setSession(session.session!);
    const fresh = await client.auth.mfa.challenge({ factorId: factor.id });
    const moved = await elsewhere.auth.mfa.verify({
      factorId: factor.id,
      challengeId: fresh.data!.id,
      code: totpCode(factor.secret),
    });
    expect(moved.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });
  });

  it('stops taking codes for a factor after 5 wrong ones, even the right one', async () => {
    const { client } = await newCustomer();
    const factor = await enrol(client);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await verify(client, factor.id, wrongCode(factor.secret));
      expect(wrong.error).toMatchObject({ code: 'mfa_verification_failed' });
    }
    const blocked = await verify(client, factor.id, totpCode(factor.secret));
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it("does not verify another user's factor", async () => {
    const owner = await withFactor();
    const other = await newCustomer();
    const challenge = await other.client.auth.mfa.challenge({ factorId: owner.factorId });
    expect(challenge.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });
});

describe('unenrolment and the admin API', () => {
  it('needs aal2 to add a second factor or remove a verified one', async () => {
    const { email } = await withFactor();
    const aal1 = apiClient({ 'x-forwarded-for': randomIp() });
    await aal1.auth.signInWithPassword({ email, password: 'Test-pass1!' });
    const second = await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Autre' });
    expect(second.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const { data } = await aal1.auth.mfa.listFactors();
    const removed = await aal1.auth.mfa.unenroll({ factorId: data!.totp[0]!.id });
    expect(removed.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
  });

  it('drops the sessions to aal1 when the factor goes', async () => {
    const user = await withFactor();
    const removed = await user.client.auth.mfa.unenroll({ factorId: user.factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: user.factorId });
    const refreshed = await user.client.auth.refreshSession();
    const claims = decodeJwt<Claims>(refreshed.data.session!.access_token);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr!.map((a) => a.method)).toEqual(['password']);
    expect((await user.client.auth.mfa.listFactors()).data!.all).toEqual([]);
  });

  it('lets the service role list and delete the factors of a user who lost the phone', async () => {
    const user = await withFactor();
    const admin = serviceClient().auth.admin.mfa;
    const listed = await admin.listFactors({ userId: user.id });
    expect(listed.error).toBeNull();
    expect(listed.data!.factors).toEqual([
      expect.objectContaining({ id: user.factorId, status: 'verified', factor_type: 'totp' }),
    ]);
    expect(JSON.stringify(listed.data)).not.toContain(user.secret);
    const deleted = await admin.deleteFactor({ userId: user.id, id: user.factorId });
    expect(deleted.error).toBeNull();
    expect((await admin.listFactors({ userId: user.id })).data!.factors).toEqual([]);
    const refreshed = await user.client.auth.refreshSession();
    expect(decodeJwt<Claims>(refreshed.data.session!.access_token).aal).toBe('aal1');
    // A customer's key is not the service role's.
    const refused = await user.client.auth.admin.mfa.listFactors({ userId: user.id });
    expect(refused.error).toMatchObject({ status: 403 });
  });
});

describe('staff act only at aal2', () => {
  it('lets one staff member pass the second factor on several devices at once (a verify ends the others at aal1: they sign in again)', async () => {
    const devices = await Promise.all(
      [0, 1, 2, 3].map(() => signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD)),
    );
    const levels = await Promise.all(
      devices.map(async (device) => {
        const { data } = await device.auth.mfa.getAuthenticatorAssuranceLevel();
        const { data: rows, error } = await device.rpc('staff_pending_sources');
        return { level: data?.currentLevel, ok: !error && Array.isArray(rows) };
      }),
    );
    expect(levels).toEqual(devices.map(() => ({ level: 'aal2', ok: true })));
  });

  it('answers every one of many challenges of one factor made at once (on PostgreSQL they queue, no deadlock)', async () => {
    const device = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    const { data } = await device.auth.mfa.listFactors();
    const factorId = data!.totp[0]!.id;
    for (let round = 0; round < 5; round += 1) {
      const challenges = await Promise.all(
        Array.from({ length: 8 }, () => device.auth.mfa.challenge({ factorId })),
      );
      expect(challenges.map((c) => c.error?.message ?? 'ok')).toEqual(challenges.map(() => 'ok'));
    }
  });

  it('refuses a staff RPC and staff rows to the demo admin at aal1, allows them at aal2', async () => {
    const aal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    expect((await aal1.rpc('is_admin')).data).toBe(false);
    const contacts = await aal1.rpc('staff_customer_contacts', { user_ids: [SEED.users.customer] });
    expectCode(contacts.error, 'not_allowed');
    expectCode((await aal1.rpc('staff_pending_sources')).error, 'not_allowed');
    const seen = await aal1.from('bookings').select('id').eq('user_id', SEED.users.customer);
    expect(seen.data).toEqual([]);

    const aal2 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    expect((await claimsOf(aal2)).aal).toBe('aal2');
    expect((await aal2.rpc('is_admin')).data).toBe(true);
    const allowed = await aal2.rpc('staff_customer_contacts', { user_ids: [SEED.users.customer] });
    expect(allowed.error).toBeNull();
    expect(allowed.data).toEqual([expect.objectContaining({ id: SEED.users.customer })]);
    const rows = await aal2.from('bookings').select('id').eq('user_id', SEED.users.customer);
    expect(rows.data!.length).toBeGreaterThan(0);
  });

  it('makes a new staff member enrol before staff data opens', async () => {
    const member = await newCustomer();
    await sql(`update public.profiles set role = 'admin' where id = $1`, [member.id]);
    await member.client.auth.refreshSession();
    expect((await member.client.rpc('is_admin')).data).toBe(false);
    const factor = await enrol(member.client);
    expect((await verify(member.client, factor.id, totpCode(factor.secret))).error).toBeNull();
    expect((await member.client.rpc('is_admin')).data).toBe(true);
  });
});
