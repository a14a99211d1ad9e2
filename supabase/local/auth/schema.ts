/**
 * The one auth table bootstrap.sql does not create: `auth.mfa_amr_claims`, where GoTrue remembers
 * how each session was authenticated so refreshed access tokens keep their `amr` claim. GoTrue
 * owns and migrates its schema; so does this service, with Supabase's columns, idempotently.
 */
import type { Queryable } from '../context.ts';

const ENSURE_SQL = `
create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null primary key,
  unique (session_id, authentication_method)
);
grant all on auth.mfa_amr_claims to service_role;
`;

export async function ensureAuthSchema(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('auth.mfa_amr_claims') is not null as present`,
  );
  if (rows[0]?.present) return;
  for (const statement of ENSURE_SQL.split(';').map((s) => s.trim())) {
    if (statement) await db.query(statement);
  }
}
