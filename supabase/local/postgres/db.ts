/**
 * The `Db` of context.ts over node-postgres: a pool to the PGlite socket server or to the server
 * named by DATABASE_URL.
 */
import pg from 'pg';

import type { Db, JwtClaims, Queryable, QueryResult } from '../context.ts';

/** The roles a request may run as, exactly as PostgREST would switch to them. */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export type DbOptions = {
  url: string;
  /** Connections in the pool (PGlite is one session: a few are plenty). */
  max?: number;
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/**
 * The settings PostgREST makes for a request, for `set_config(name, value, true)`:
 * the role, `request.jwt.claims`, and `request.jwt.claim.<key>` for each scalar claim.
 */
export function claimSettings(claims: JwtClaims | null): Array<[string, string]> {
  const effective: JwtClaims = claims ?? { role: 'anon' };
  const role = effective.role;
  if (typeof role !== 'string' || !API_ROLES.has(role)) {
    throw new Error(`Refusing to run as role ${JSON.stringify(role)}.`);
  }
  const settings: Array<[string, string]> = [
    ['role', role],
    ['request.jwt.claims', JSON.stringify(effective)],
  ];
  for (const [key, value] of Object.entries(effective)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      settings.push([`request.jwt.claim.${key}`, String(value)]);
    }
  }
  return settings;
}

export function createDb(options: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});

  async function tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const result = await fn(wrap(client));
      await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  return {
    ...wrap(pool),
    tx,
    async asClaims(claims, fn, headers) {
      const settings = claimSettings(claims);
      if (headers) settings.push(['request.headers', JSON.stringify(headers)]);
      return tx(async (q) => {
        // Names and values are parameters: nothing from the token is interpolated into SQL.
        const names = settings.map(([name]) => name);
        const values = settings.map(([, value]) => value);
        await q.query(
          'select set_config(name, value, true) from unnest($1::text[], $2::text[]) as s(name, value)',
          [names, values],
        );
        return fn(q);
      });
    },
    async close() {
      await pool.end();
    },
  };
}
