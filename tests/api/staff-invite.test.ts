/**
 * Staff invitations (docs/auth.md, "Staff invitations"): the invite-staff Edge Function refuses a
 * customer and an admin at aal1; an admin at aal2 invites, the invitee gets the mail, confirms with
 * its code (`verifyOtp` type `invite`), sets a password, is staff (role admin) and reaches staff
 * access only after enrolling TOTP. Through the gateway, the real function and the local auth
 * (POST /invite, supabase/local/auth/invite.ts).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';

import { sql, testStack, uniqueEmail, waitForMail } from '../support/clients.ts';
import {
  adminClient,
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  newCustomer,
  signedIn,
  visitor,
} from '../support/fixtures.ts';
import { totpCode } from '../support/mfa.ts';
import { parseAuthMail } from '../support/supabase.ts';

const PROFILE = {
  name: 'Yacine Haddad',
  phone: '+213555000222',
  age: 35,
  address: '12 rue Larbi Ben Mhidi, Alger',
};
const NEW_PASSWORD = 'Staff-Kiraa-2026!';

async function inviteAs(client: SupabaseClient, body: Record<string, unknown>) {
  const { data } = await client.auth.getSession();
  const res = await fetch(`${testStack().apiUrl}/functions/v1/invite-staff`, {
    method: 'POST',
    headers: {
      apikey: testStack().anonKey,
      authorization: `Bearer ${data.session?.access_token ?? ''}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('staff invitations', () => {
  it('the mail’s link confirms the invitee and lands on /accept-invite signed in, once', async () => {
    const staff = await adminClient();
    const email = uniqueEmail('invited-link');
    const asked = Date.now();
    const redirectTo = 'http://localhost:4173/accept-invite';
    const invited = await inviteAs(staff, { email, data: PROFILE, redirect_to: redirectTo });
    expect(invited.status).toBe(200);
    const mail = await waitForMail(email, (m) => Date.parse(m.createdAt) >= asked - 1000);
    const { link } = parseAuthMail(mail.text);
    expect(link.searchParams.get('type')).toBe('invite');
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const target = new URL(opened.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(target.hash.slice(1));
    expect(fragment.get('type')).toBe('invite');
    expect(fragment.get('access_token')).toBeTruthy();
    const [row] = await sql<{ confirmed: boolean }>(
      `select email_confirmed_at is not null as confirmed from auth.users where email = $1`,
      [email],
    );
    expect(row!.confirmed).toBe(true);
    const again = await fetch(link, { redirect: 'manual' });
    expect(new URL(again.headers.get('location')!).hash).toContain('error_code=otp_expired');
  });

  it('refuses a customer and an admin without the second factor; invites nobody', async () => {
    const email = uniqueEmail('not-invited');
    const customer = await newCustomer();
    expect(await inviteAs(customer.client, { email, data: PROFILE })).toMatchObject({
      status: 403,
      body: { error: 'staff_aal2_required' },
    });
    const anon = await fetch(`${testStack().apiUrl}/functions/v1/invite-staff`, {
      method: 'POST',
      headers: { apikey: testStack().anonKey, authorization: `Bearer ${testStack().anonKey}` },
      body: JSON.stringify({ email, data: PROFILE }),
    });
    expect(anon.status).toBe(403);
    const aal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    expect((await inviteAs(aal1, { email, data: PROFILE })).status).toBe(403);
    expect(await sql(`select 1 from auth.users where email = $1`, [email])).toEqual([]);
  });

  it('an aal2 admin invites; the invitee confirms by code, sets a password and is staff after TOTP', async () => {
    const staff = await adminClient();
    const email = uniqueEmail('invited');
    const asked = Date.now();
    const invited = await inviteAs(staff, { email, data: PROFILE });
    expect(invited.status).toBe(200);
    const userId = invited.body.user_id as string;
    const [row] = await sql<{ role: string; confirmed: boolean; invited: boolean }>(
      `select p.role, u.email_confirmed_at is not null as confirmed, u.invited_at is not null as invited
         from auth.users u join public.profiles p on p.id = u.id where u.id = $1`,
      [userId],
    );
    expect(row).toEqual({ role: 'admin', confirmed: false, invited: true });

    const mail = await waitForMail(email, (m) => Date.parse(m.createdAt) >= asked - 1000);
    const { code } = parseAuthMail(mail.text);
    const invitee = visitor();
    const wrong = code === '00000000' ? '11111111' : '00000000';
    const refused = await invitee.auth.verifyOtp({ email, token: wrong, type: 'invite' });
    expect(refused.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const verified = await invitee.auth.verifyOtp({ email, token: code, type: 'invite' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.app_metadata.role).toBe('admin');
    expect((await invitee.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    const again = await visitor().auth.verifyOtp({ email, token: code, type: 'invite' });
    expect(again.error).toMatchObject({ code: 'otp_expired' });

    // With the password: role admin, but no staff access before the second factor.
    const member = visitor();
    expect(
      (await member.auth.signInWithPassword({ email, password: NEW_PASSWORD })).error,
    ).toBeNull();
    expect((await member.rpc('is_admin')).data).toBe(false);
    const enrolled = await member.auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toBeNull();
    const factorId = enrolled.data!.id;
    const secret = enrolled.data!.totp.secret;
    const done = await member.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
    expect(done.error).toBeNull();
    expect((await member.rpc('is_admin')).data).toBe(true);
  });

  it('refuses an address an account already holds, and a profile the sign-up rules refuse', async () => {
    const staff = await adminClient();
    const customer = await newCustomer();
    const taken = await inviteAs(staff, { email: customer.email, data: PROFILE });
    expect(taken).toMatchObject({ status: 409, body: { error: 'email_exists' } });
    const [role] = await sql<{ role: string }>(`select role from public.profiles where id = $1`, [
      customer.id,
    ]);
    expect(role!.role).toBe('user');

    const email = uniqueEmail('no-profile');
    const bad = await inviteAs(staff, { email, data: { ...PROFILE, age: 12 } });
    expect(bad).toMatchObject({ status: 422, body: { error: 'invalid_profile' } });
    expect(String(bad.body.message)).toMatch(/^age: /);
    expect(await sql(`select 1 from auth.users where email = $1`, [email])).toEqual([]);
    expect((await inviteAs(staff, { email: 'not-an-address', data: PROFILE })).status).toBe(400);
  });
});
