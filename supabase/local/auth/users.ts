/**
 * `auth.users` and `auth.identities` rows, read as the auth service (the connecting superuser),
 * and their JSON as GoTrue returns it (models.User / models.Identity).
 */
import type { Queryable } from '../context.ts';

export type UserRow = {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: unknown;
  invited_at: unknown;
  confirmation_sent_at: unknown;
  confirmed_at: unknown;
  recovery_sent_at: unknown;
  email_change: string | null;
  email_change_sent_at: unknown;
  last_sign_in_at: unknown;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: unknown;
  updated_at: unknown;
  phone: string | null;
  phone_confirmed_at: unknown;
  banned_until: unknown;
  deleted_at: unknown;
  is_anonymous: boolean;
  /** Computed: `banned_until` lies in the future. */
  banned: boolean;
};

type IdentityRow = {
  identity_id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown> | null;
  provider: string;
  last_sign_in_at: unknown;
  created_at: unknown;
  updated_at: unknown;
  email: string | null;
};

export type UserJson = Record<string, unknown> & { id: string };

/** GoTrue's nil instance id, which it writes into every row it creates. */
export const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';

export const USER_COLUMNS = `
  u.id::text as id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at,
  u.invited_at, u.confirmation_sent_at, u.confirmed_at, u.recovery_sent_at, u.email_change,
  u.email_change_sent_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data,
  u.created_at, u.updated_at, u.phone, u.phone_confirmed_at, u.banned_until, u.deleted_at,
  u.is_anonymous, coalesce(u.banned_until > now(), false) as banned`;

export const USER_SELECT = `select ${USER_COLUMNS} from auth.users u`;

/** A timestamp from either driver (Date from pg/PGlite, or text) as ISO 8601, or null. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await q.query<UserRow>(`${USER_SELECT} where u.id = $1`, [id]);
  return rows[0] ?? null;
}

/** The user with this (already lower-cased) email, SSO users and soft-deleted users aside. */
export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await q.query<UserRow>(
    `${USER_SELECT}
      where lower(u.email) = $1 and u.is_sso_user = false and u.deleted_at is null
      order by u.created_at limit 1`,
    [email],
  );
  return rows[0] ?? null;
}

async function identitiesOf(q: Queryable, userIds: string[]): Promise<Map<string, IdentityRow[]>> {
  const byUser = new Map<string, IdentityRow[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await q.query<IdentityRow>(
    `select id::text as identity_id, provider_id, user_id::text as user_id, identity_data,
            provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities
      where user_id = any($1::uuid[])
      order by created_at, id`,
    [userIds],
  );
  for (const row of rows) {
    const list = byUser.get(row.user_id) ?? [];
    list.push(row);
    byUser.set(row.user_id, list);
  }
  return byUser;
}

function identityJson(row: IdentityRow): Record<string, unknown> {
  return omitNulls({
    identity_id: row.identity_id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data ?? {},
    provider: row.provider,
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    email: row.email,
  });
}

type FactorRow = {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  created_at: unknown;
  updated_at: unknown;
  last_challenged_at: unknown;
};

async function factorsOf(q: Queryable, userIds: string[]): Promise<Map<string, FactorRow[]>> {
  const byUser = new Map<string, FactorRow[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await q.query<FactorRow>(
    `select id::text as id, user_id::text as user_id, friendly_name, factor_type, status,
            created_at, updated_at, last_challenged_at
       from auth.mfa_factors
      where user_id = any($1::uuid[])
      order by created_at, id`,
    [userIds],
  );
  for (const row of rows) {
    const list = byUser.get(row.user_id) ?? [];
    list.push(row);
    byUser.set(row.user_id, list);
  }
  return byUser;
}

/** A factor as GoTrue's models.Factor marshals it (the secret never leaves the server). */
export function factorJson(row: FactorRow): Record<string, unknown> {
  return {
    id: row.id,
    ...omitNulls({ friendly_name: row.friendly_name ? row.friendly_name : null }),
    factor_type: row.factor_type,
    status: row.status,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...omitNulls({ last_challenged_at: iso(row.last_challenged_at) }),
  };
}

/** A user's factors, oldest first. */
export async function factorsOfUser(q: Queryable, userId: string): Promise<FactorRow[]> {
  return (await factorsOf(q, [userId])).get(userId) ?? [];
}

function omitNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

function userJsonWith(
  row: UserRow,
  identities: IdentityRow[],
  factors: FactorRow[] = [],
): UserJson {
  // Field order and omissions follow GoTrue's models.User (`omitempty` fields left out when null).
  return {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
    ...omitNulls({
      email_confirmed_at: iso(row.email_confirmed_at),
      invited_at: iso(row.invited_at),
    }),
    phone: row.phone ?? '',
    ...omitNulls({
      phone_confirmed_at: iso(row.phone_confirmed_at),
      confirmation_sent_at: iso(row.confirmation_sent_at),
      confirmed_at: iso(row.confirmed_at),
      recovery_sent_at: iso(row.recovery_sent_at),
      new_email: row.email_change ? row.email_change : null,
      email_change_sent_at: iso(row.email_change_sent_at),
      last_sign_in_at: iso(row.last_sign_in_at),
    }),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    ...omitNulls({ banned_until: row.banned ? iso(row.banned_until) : null }),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...omitNulls({ deleted_at: iso(row.deleted_at) }),
    is_anonymous: row.is_anonymous,
  };
}

export async function userJson(q: Queryable, row: UserRow): Promise<UserJson> {
  const identities = await identitiesOf(q, [row.id]);
  const factors = await factorsOf(q, [row.id]);
  return userJsonWith(row, identities.get(row.id) ?? [], factors.get(row.id) ?? []);
}

export async function usersJson(q: Queryable, rows: UserRow[]): Promise<UserJson[]> {
  const ids = rows.map((r) => r.id);
  const identities = await identitiesOf(q, ids);
  const factors = await factorsOf(q, ids);
  return rows.map((row) =>
    userJsonWith(row, identities.get(row.id) ?? [], factors.get(row.id) ?? []),
  );
}
