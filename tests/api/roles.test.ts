/**
 * The database roles of a hosted Supabase project (issue 11, item 6): PostgREST logs in as
 * `authenticator`, which can only become anon, authenticated or service_role, on PGlite as on
 * PostgreSQL. A token signed with the real secret but claiming any other role is refused, so even
 * a leaked secret does not open the superuser.
 */
import { describe, expect, it } from 'vitest';

import { signJwt } from '../../supabase/local/jwt.ts';
import { sql, testStack } from '../support/clients.ts';

function tokenFor(role: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      iss: 'supabase-demo',
      role,
      iat: now,
      exp: now + 600,
      sub: '00000000-0000-4000-8000-000000000001',
    },
    testStack().jwtSecret,
  );
}

async function restAs(role: string, path: string, init: RequestInit = {}): Promise<Response> {
  const { apiUrl, anonKey } = testStack();
  return fetch(`${apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${tokenFor(role)}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

describe('database roles, as on a hosted project', () => {
  it('has the platform roles with their attributes', async () => {
    const rows = await sql<{
      rolname: string;
      rolcanlogin: boolean;
      rolinherit: boolean;
      rolsuper: boolean;
      rolbypassrls: boolean;
    }>(
      `select rolname, rolcanlogin, rolinherit, rolsuper, rolbypassrls from pg_roles
        where rolname in ('authenticator', 'anon', 'authenticated', 'service_role',
                          'supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin')
        order by rolname`,
    );
    const byName = Object.fromEntries(rows.map((r) => [r.rolname, r]));
    expect(Object.keys(byName)).toHaveLength(7);
    expect(byName.authenticator).toMatchObject({
      rolcanlogin: true,
      rolinherit: false,
      rolsuper: false,
    });
    expect(byName.anon).toMatchObject({ rolcanlogin: false, rolsuper: false, rolbypassrls: false });
    expect(byName.service_role).toMatchObject({ rolcanlogin: false, rolbypassrls: true });
    expect(byName.supabase_admin).toMatchObject({ rolsuper: true });
    const members = await sql<{ role: string }>(
      `select r.rolname as role from pg_auth_members m
         join pg_roles r on r.oid = m.roleid
         join pg_roles u on u.oid = m.member
        where u.rolname = 'authenticator' order by 1`,
    );
    expect(members.map((m) => m.role)).toEqual(['anon', 'authenticated', 'service_role']);
    const owners = await sql<{ table: string; owner: string }>(
      `select c.relnamespace::regnamespace::text || '.' || c.relname as table,
              pg_get_userbyid(c.relowner) as owner
         from pg_class c
        where c.oid in ('auth.users'::regclass, 'storage.objects'::regclass)
        order by 1`,
    );
    expect(owners).toEqual([
      { table: 'auth.users', owner: 'supabase_auth_admin' },
      { table: 'storage.objects', owner: 'supabase_storage_admin' },
    ]);
  });

  it('serves the API roles', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const res = await restAs(role, 'cars?select=id&limit=1');
      expect(res.status, role).toBe(200);
    }
  });

  it.each([
    'postgres',
    'supabase_admin',
    'authenticator',
    'supabase_auth_admin',
    'pg_read_all_data',
    'pg_write_server_files',
  ])('refuses a token claiming the role %s, signed with the real secret', async (role) => {
    const read = await restAs(role, 'cars?select=id&limit=1');
    expect(read.status).toBeGreaterThanOrEqual(400);
    expect(read.status).toBeLessThan(500);
    const body = (await read.json()) as { code?: string; message?: string };
    expect(body.code).toBe('42501');
    // Not even a function: nothing runs as that role.
    const rpc = await restAs(role, 'rpc/car_busy_periods', {
      method: 'POST',
      body: JSON.stringify({ from: '2030-01-01T00:00:00Z', to: '2030-02-01T00:00:00Z' }),
    });
    expect(rpc.status).toBeGreaterThanOrEqual(400);
    expect(rpc.status).toBeLessThan(500);
  });
});
