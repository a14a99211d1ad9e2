/**
 * Accounts as the database keeps them: the profile a sign-up creates from its metadata (adults
 * only), the role copied into the tokens' app_metadata, and the seed's demo accounts.
 */
import { describe, expect, it } from 'vitest';

import { sql } from '../support/clients.ts';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_CUSTOMER_EMAIL,
  DEMO_PASSWORD,
  SEED,
  expectCode,
  newCustomer,
  signedIn,
  visitor,
} from '../support/fixtures.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/supabase.ts';

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('sign-up', () => {
  it('creates the profile from {name, phone, age, address}, with the user role', async () => {
    const customer = await newCustomer({
      name: 'Yasmine Kaci',
      phone: '+213661000222',
      age: '27',
      address: '3 rue Larbi Ben M’hidi, Oran',
    });
    const { data } = await customer.client.from('profiles').select('*').single();
    expect(data).toMatchObject({
      id: customer.id,
      full_name: 'Yasmine Kaci',
      phone: '+213661000222',
      age: 27,
      address: '3 rue Larbi Ben M’hidi, Oran',
      role: 'user',
    });
    const session = (await customer.client.auth.getSession()).data.session!;
    expect(decodeClaims(session.access_token).app_metadata).toMatchObject({ role: 'user' });
  });

  it('is refused at the database for an under-age or non-numeric age, and leaves no account', async () => {
    for (const age of [17, 'dix-huit']) {
      const email = uniqueEmail('minor');
      const { data, error } = await visitor().auth.signUp({
        email,
        password: TEST_PASSWORD,
        options: { data: { name: 'Trop Jeune', phone: '+213555000333', age, address: 'Alger' } },
      });
      expect(error, String(age)).not.toBeNull();
      expect(data.user).toBeNull();
      expect(await sql('select id from auth.users where email = $1', [email])).toEqual([]);
    }
  });

  it('keeps the profile in step when the user changes their metadata', async () => {
    const customer = await newCustomer();
    const update = await customer.client.auth.updateUser({ data: { name: 'Lina Bouzid-Amrani' } });
    expect(update.error).toBeNull();
    const { data } = await customer.client.from('profiles').select('full_name, age').single();
    expect(data).toEqual({ full_name: 'Lina Bouzid-Amrani', age: 30 });
    // A change the sign-up hook would refuse is refused the same way (locally; on hosted the
    // profile keeps its value, internal.sync_profile_from_user).
    for (const [data, reason] of [
      [{ age: 16 }, 'age: under_age'],
      [{ name: 'Lina\r\nPay at evil.example' }, 'name: control_characters'],
      [{ phone: '12' }, 'phone: format'],
      [{ address: 'x'.repeat(201) }, 'address: too_long'],
    ] as const) {
      const refused = await customer.client.auth.updateUser({ data });
      expect(refused.error?.status, JSON.stringify(data)).toBe(422);
      expect(refused.error?.message).toBe(reason);
    }
    const after = await customer.client.from('profiles').select('age, full_name').single();
    expect(after.data).toEqual({ age: 30, full_name: 'Lina Bouzid-Amrani' });
    // Metadata written past the checks (what GoTrue stores on hosted) leaves the profile as it was.
    await sql(
      `update auth.users set raw_user_meta_data = raw_user_meta_data || '{"age": 16, "name": "A\u202eB"}'::jsonb where id = $1`,
      [customer.id],
    );
    const kept = await customer.client.from('profiles').select('age, full_name').single();
    expect(kept.data).toEqual({ age: 30, full_name: 'Lina Bouzid-Amrani' });
  });
});

describe('profile text, whoever writes it', () => {
  it('stores a phone as people type it the one way, and a sign-up with "0555 12 34 56" is welcome', async () => {
    const customer = await newCustomer({
      name: 'Nadir Saidi',
      phone: '0555 12 34 56',
      age: 41,
      address: '2 rue Ben Boulaid, Blida',
    });
    const { data } = await customer.client.from('profiles').select('phone').single();
    expect(data).toEqual({ phone: '+213555123456' });
    const patched = await customer.client
      .from('profiles')
      .update({ phone: '00213 661 00 02 22' })
      .eq('id', customer.id)
      .select('phone')
      .single();
    expect(patched.error).toBeNull();
    expect(patched.data).toEqual({ phone: '+213661000222' });
  });

  it('refuses a direct change with hidden characters, a bad phone or age, with coded errors, keeping the profile', async () => {
    const customer = await newCustomer();
    for (const [change, code] of [
      [{ full_name: 'Lina\r\nDear customer, pay at evil.example' }, 'invalid_name'],
      [{ full_name: 'Lina \u202eadrob' }, 'invalid_name'],
      [{ full_name: 'Lina\u200b' }, 'invalid_name'],
      [{ address: 'Alger\u2028Bcc: x' }, 'invalid_address'],
      [{ phone: '+213 55' }, 'invalid_phone'],
      [{ age: 12 }, 'invalid_age'],
    ] as const) {
      const { error } = await customer.client.from('profiles').update(change).eq('id', customer.id);
      expectCode(error, code);
    }
    const { data } = await customer.client.from('profiles').select('full_name, address').single();
    expect(data).toEqual({ full_name: 'Lina Bouzid', address: '1 rue Didouche Mourad, Alger' });
  });

  it('refuses a customer emptying a required field of their own profile (the account page), keeping it', async () => {
    const customer = await newCustomer();
    for (const [change, code] of [
      [{ full_name: '' }, 'invalid_name'],
      [{ phone: null }, 'invalid_phone'],
      [{ age: null }, 'invalid_age'],
      [{ address: null }, 'invalid_address'],
    ] as const) {
      const { error } = await customer.client.from('profiles').update(change).eq('id', customer.id);
      expectCode(error, code);
    }
    const changed = await customer.client
      .from('profiles')
      .update({ full_name: 'Lina Haddad', age: 41 })
      .eq('id', customer.id)
      .select('full_name, age, phone, address')
      .single();
    expect(changed.error).toBeNull();
    expect(changed.data).toEqual({
      full_name: 'Lina Haddad',
      age: 41,
      phone: expect.any(String),
      address: '1 rue Didouche Mourad, Alger',
    });
    // An operator may still clear a field (anonymising an account that keeps its bookings).
    await sql(`update public.profiles set phone = null, address = null where id = $1`, [
      customer.id,
    ]);
    const [row] = await sql<{ phone: string | null }>(
      `select phone from public.profiles where id = $1`,
      [customer.id],
    );
    expect(row!.phone).toBeNull();
  });

  it('answers 400 to sign-up data holding a NUL character or a lone surrogate, never 500', async () => {
    for (const name of ['Amel\u0000', 'Amel \ud800']) {
      const { error } = await visitor().auth.signUp({
        email: uniqueEmail('nul'),
        password: TEST_PASSWORD,
        options: { data: { name, phone: '+213555000333', age: 30, address: 'Alger' } },
      });
      expect(error?.status, JSON.stringify(name)).toBe(400);
    }
  });
});

describe('roles', () => {
  it('puts the profile role into the token: the demo admin is admin, the demo customer user', async () => {
    const admin = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    const adminToken = (await admin.auth.getSession()).data.session!.access_token;
    expect(decodeClaims(adminToken)).toMatchObject({
      sub: SEED.users.admin,
      role: 'authenticated',
      app_metadata: { role: 'admin' },
    });
    const customer = await signedIn(DEMO_CUSTOMER_EMAIL, DEMO_PASSWORD);
    const customerToken = (await customer.auth.getSession()).data.session!.access_token;
    expect(decodeClaims(customerToken).app_metadata).toMatchObject({ role: 'user' });
    const { data } = await customer.from('profiles').select('full_name, role').single();
    expect(data).toEqual({ full_name: 'Karim Benali', role: 'user' });
  });

  it('copies a role granted by staff (SQL) into the next token, and back', async () => {
    const customer = await newCustomer();
    await sql(`update public.profiles set role = 'admin' where id = $1`, [customer.id]);
    const promoted = await customer.client.auth.refreshSession();
    expect(promoted.error).toBeNull();
    expect(decodeClaims(promoted.data.session!.access_token).app_metadata).toMatchObject({
      role: 'admin',
    });
    // Staff act only at aal2 (tests/api/mfa.test.ts): the role alone opens nothing.
    expect((await customer.client.rpc('is_admin')).data).toBe(false);
    await sql(`update public.profiles set role = 'user' where id = $1`, [customer.id]);
    const demoted = await customer.client.auth.refreshSession();
    expect(decodeClaims(demoted.data.session!.access_token).app_metadata).toMatchObject({
      role: 'user',
    });
    expect((await customer.client.rpc('is_admin')).data).toBe(false);
  });
});
