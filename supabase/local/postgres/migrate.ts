/**
 * Brings a database to the current schema, as `supabase start` / `supabase db push` do:
 * bootstrap.sql (the platform part of a Supabase project; idempotent, every start), the CLI's
 * migration history tables, then each migration of supabase/migrations not yet
 * recorded in `supabase_migrations.schema_migrations`, in filename order, each in its own
 * transaction; then supabase/seed.sql once, on a fresh database only (recorded in
 * `supabase_migrations.seed_files`).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

import pg from 'pg';

import { ROOT_DIR } from '../config.ts';

export type MigrateOptions = {
  url: string;
  bootstrapFile: string;
  /** The local stand-ins of pg_cron, pg_net and Vault (applied after bootstrap, every start). */
  extensionsFile?: string;
  migrationsDir: string;
  seedFile: string;
  log?: (message: string) => void;
};

export type MigrateResult = {
  /** No migration had ever been applied before this run. */
  fresh: boolean;
  applied: string[];
  seeded: boolean;
};

/** The Supabase CLI's migration history (pkg/migration/history.go), which `db push` creates too. */
const HISTORY_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);
create table if not exists supabase_migrations.seed_files (
  path text primary key,
  hash text not null
);`;

/** `<version>_<name>.sql`, version = the leading digits (the Supabase CLI's timestamp). */
const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/;

/** A failed SQL file, with the file, the line and everything Postgres said. */
export class MigrationError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
    sql: string,
  ) {
    super(describe(file, cause, sql), { cause });
    this.name = 'MigrationError';
  }
}

function describe(file: string, cause: unknown, sql: string): string {
  if (!(cause instanceof Error)) return `${file}: ${String(cause)}`;
  const error = cause as pg.DatabaseError;
  let where = '';
  const position = Number(error.position);
  if (Number.isInteger(position) && position > 0) {
    const line = sql.slice(0, position - 1).split('\n').length;
    where = `:${line}`;
  }
  const parts = [`${file}${where}: ${error.message}`];
  if (error.code) parts[0] += ` (SQLSTATE ${error.code})`;
  if (error.detail) parts.push(`DETAIL: ${error.detail}`);
  if (error.hint) parts.push(`HINT: ${error.hint}`);
  if (error.where) parts.push(`CONTEXT: ${error.where}`);
  return parts.join('\n');
}

async function listMigrations(
  dir: string,
): Promise<Array<{ version: string; name: string; path: string }>> {
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  return files.map((file) => {
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new Error(
        `supabase/migrations/${file}: a migration is named <timestamp>_<name>.sql (e.g. 20260101000000_init.sql).`,
      );
    }
    return { version: match[1]!, name: match[2]!, path: join(dir, file) };
  });
}

async function runFile(
  client: pg.Client,
  label: string,
  sql: string,
  record?: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  try {
    await client.query('begin');
    // One simple-protocol query: the file may hold many statements and dollar-quoted bodies.
    await client.query(sql);
    if (record) await record(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw new MigrationError(label, error, sql);
  }
}

export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    // Two stacks migrating the same server at once wait for each other.
    await client.query('select pg_advisory_lock(7206110)');
    try {
      const bootstrap = await readFile(options.bootstrapFile, 'utf8');
      await runFile(client, relative(ROOT_DIR, options.bootstrapFile), bootstrap);
      await runFile(client, 'migration history', HISTORY_SQL);
      if (options.extensionsFile) {
        const extensions = await readFile(options.extensionsFile, 'utf8');
        await runFile(client, relative(ROOT_DIR, options.extensionsFile), extensions);
      }

      const done = await client.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      );
      const appliedBefore = new Set(done.rows.map((row) => row.version));
      const seeds = await client.query('select 1 from supabase_migrations.seed_files limit 1');
      const fresh = appliedBefore.size === 0 && seeds.rowCount === 0;

      const applied: string[] = [];
      for (const migration of await listMigrations(options.migrationsDir)) {
        if (appliedBefore.has(migration.version)) continue;
        const sql = await readFile(migration.path, 'utf8');
        const label = relative(ROOT_DIR, migration.path);
        await runFile(client, label, sql, (c) =>
          c.query(
            'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
            [migration.version, migration.name, [sql]],
          ),
        );
        applied.push(basename(migration.path));
        log(`applied ${label}`);
      }

      let seeded = false;
      if (fresh && existsSync(options.seedFile)) {
        const sql = await readFile(options.seedFile, 'utf8');
        const label = relative(ROOT_DIR, options.seedFile);
        await runFile(client, label, sql, (c) =>
          c.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
            label,
            createHash('sha256').update(sql).digest('hex'),
          ]),
        );
        seeded = true;
        log(`seeded ${label}`);
      }
      return { fresh, applied, seeded };
    } finally {
      await client.query('select pg_advisory_unlock(7206110)').catch(() => {});
    }
  } finally {
    await client.end();
  }
}
