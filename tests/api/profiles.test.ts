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
    const minor = await customer.client.auth.updateUser({ data: { age: 16 } });
    expect(minor.error).not.toBeNull();
    const after = await customer.client.from('profiles').select('age').single();
    expect(after.data?.age).toBe(30);
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
    expect((await customer.client.rpc('is_admin')).data).toBe(true);
    await sql(`update public.profiles set role = 'user' where id = $1`, [customer.id]);
    const demoted = await customer.client.auth.refreshSession();
    expect(decodeClaims(demoted.data.session!.access_token).app_metadata).toMatchObject({
      role: 'user',
    });
    expect((await customer.client.rpc('is_admin')).data).toBe(false);
  });
});
