/** The database login PostgREST uses: `authenticator`, as on Supabase. */
import { createHmac } from 'node:crypto';

import pg from 'pg';

/** PGlite's URL for the `authenticator` login (PGlite checks no password). */
export function asAuthenticator(pgliteUrl: string): string {
  const url = new URL(pgliteUrl);
  url.username = 'authenticator';
  url.password = 'authenticator';
  return url.toString();
}

/**
 * PostgREST connects to a real server as `authenticator` (as on Supabase), with a password
 * derived from the JWT secret: whoever knows the secret can already act as service_role.
 * Falls back to the DATABASE_URL user when the server refuses that login (pg_hba rules).
 */
export async function postgrestUri(
  databaseUrl: string,
  jwtSecret: string,
  log: (m: string) => void,
): Promise<string> {
  const password = createHmac('sha256', jwtSecret).update('kiraa-authenticator').digest('hex');
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ sql: string }>(
      "select format('alter role authenticator with login password %L', $1::text) as sql",
      [password],
    );
    await admin.query(rows[0]!.sql);
  } catch (error) {
    log(`PostgREST connects as the DATABASE_URL user: ${(error as Error).message}.`);
    return databaseUrl;
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.username = 'authenticator';
  url.password = password;
  const probe = new pg.Client({ connectionString: url.toString() });
  try {
    await probe.connect();
    return url.toString();
  } catch (error) {
    log(
      `PostgREST connects as the DATABASE_URL user: the server refused "authenticator" (${(error as Error).message}).`,
    );
    return databaseUrl;
  } finally {
    await probe.end().catch(() => {});
  }
}
