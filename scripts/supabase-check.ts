/**
 * `npm run test:supabase`: the real Supabase CLI (npm `supabase`, no Docker) against a throwaway
 * PostgreSQL 15 cluster laid out as a hosted project:
 *
 * 1. initdb with the platform's superuser `supabase_admin`, then supabase/local/bootstrap.sql (the
 *    platform part: roles, `auth` and `storage`, `extensions`), which demotes `postgres` to the
 *    non-superuser role a hosted project gives its owner, and supabase/local/extensions.sql (pg_cron,
 *    pg_net and Vault where the cluster lacks them);
 * 2. `supabase db push --include-seed` as `postgres`, the way migrations reach production;
 * 3. `supabase db advisors` (Supabase's linter): no ERROR or WARN;
 * 4. `supabase db lint` (plpgsql_check): no warning;
 * 5. `supabase gen types typescript` equals src/infra/database.types.ts, and supabase/schema (the
 *    live schema, one file per rule: scripts/schema-mirror.ts) equals the pushed database
 *    (`npm run test:supabase -- --update` rewrites both).
 *
 * Prints what each step found and how long it took; exits non-zero on the first failure.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import { postgresUnavailableReason, startPostgres } from '../tests/support/postgres.ts';

import { liveSchema, mirrorDifferences, writeMirror } from './schema-mirror.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const TYPES_FILE = join(ROOT, 'src/infra/database.types.ts');
const SCHEMA_MIRROR = join(ROOT, 'supabase/schema');
const BOOTSTRAP = join(ROOT, 'supabase/local/bootstrap.sql');
const EXTENSIONS = join(ROOT, 'supabase/local/extensions.sql');
const CLI = join(ROOT, 'node_modules/supabase/dist/supabase.js');

type Advisory = { name: string; level: string; detail?: string; title?: string };

function cli(args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args, '--workdir', ROOT], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
      // No telemetry, no update check, no prompt: the gate runs offline.
      DO_NOT_TRACK: '1',
      SUPABASE_TELEMETRY_DISABLED: '1',
      SUPABASE_YES: '1',
      CI: 'true',
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 5 * 60_000,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `supabase ${args.join(' ')} exited with ${result.status}:\n${result.stderr}\n${result.stdout}`,
    );
  }
  // A key the CLI ignores (a typo, a deprecated name) would never reach the hosted project.
  const ignored = /^WARN: supabase\/config\.toml .*$/m.exec(result.stderr);
  if (ignored) throw new Error(`supabase ${args[0]} ${args[1] ?? ''}: ${ignored[0]}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

function withUser(url: string, user: string, password?: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password ?? '';
  parsed.searchParams.set('sslmode', 'disable');
  return parsed.toString();
}

async function timed<T>(label: string, step: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const result = await step();
  console.info(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** The advisories as JSON, whatever wrapping the CLI puts around them. */
function parseAdvisories(stdout: string): Advisory[] {
  const start = stdout.search(/[[{]/);
  if (start < 0) return [];
  const parsed: unknown = JSON.parse(stdout.slice(start));
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as { lints?: unknown[]; data?: unknown[] }).lints ??
      (parsed as { data?: unknown[] }).data ??
      []);
  return list as Advisory[];
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const update = argv.includes('--update');
  const unavailable = postgresUnavailableReason();
  if (unavailable) throw new Error(`The Supabase CLI check needs PostgreSQL 15: ${unavailable}.`);
  const started = Date.now();
  const failures: string[] = [];
  console.info("Supabase CLI check (a hosted project's layout on PostgreSQL 15):");
  const cluster = await timed('cluster started as supabase_admin', () =>
    startPostgres({ superuser: 'supabase_admin' }),
  );
  try {
    const admin = withUser(cluster.url, 'supabase_admin');
    const owner = withUser(cluster.url, 'postgres', 'postgres');
    await timed('platform part applied (supabase/local/bootstrap.sql)', async () => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(readFileSync(BOOTSTRAP, 'utf8'));
        // pg_cron, pg_net and Vault: a hosted project has them; this cluster gets the local
        // stand-ins (the same SQL API, docs/functions.md), as the local stack does.
        await client.query(readFileSync(EXTENSIONS, 'utf8'));
        await client.query("alter role postgres password 'postgres'");
        // `db lint` creates plpgsql_check as `postgres` (the CLI steps down from supabase_admin);
        // on a hosted project supautils lets it, here the platform's superuser does it first.
        await client.query('create extension if not exists plpgsql_check with schema extensions');
        const { rows } = await client.query<{ rolsuper: boolean }>(
          "select rolsuper from pg_roles where rolname = 'postgres'",
        );
        if (rows[0]?.rolsuper !== false) throw new Error('postgres is still a superuser.');
      } finally {
        await client.end();
      }
    });

    await timed('supabase db push --include-seed, as postgres', () =>
      cli(['db', 'push', '--include-seed', `--remote=${owner}`, '--yes']),
    );

    const advisories = await timed('supabase db advisors', () =>
      parseAdvisories(
        cli([
          'db',
          'advisors',
          `--remote=${owner}`,
          '--type',
          'all',
          '--level',
          'info',
          '-o',
          'json',
        ]).stdout,
      ),
    );
    const byLevel = new Map<string, number>();
    for (const a of advisories) byLevel.set(a.level, (byLevel.get(a.level) ?? 0) + 1);
    console.info(
      `    advisories: ${advisories.length === 0 ? 'none' : [...byLevel].map(([l, n]) => `${n} ${l}`).join(', ')}`,
    );
    for (const a of advisories)
      console.info(`    - ${a.level} ${a.name}: ${a.detail ?? a.title ?? ''}`);
    const serious = advisories.filter((a) => /^(error|warn)/i.test(a.level));
    if (serious.length > 0) {
      failures.push(`supabase db advisors: ${serious.length} ERROR/WARN advisories (above).`);
    }

    const lint = await timed('supabase db lint (plpgsql_check)', () =>
      cli(['db', 'lint', `--remote=${owner}`, '--level', 'warning', '-o', 'json']),
    );
    const lintText = `${lint.stdout}`.trim();
    const lintFindings = lintText.startsWith('[') ? (JSON.parse(lintText) as unknown[]) : [];
    console.info(
      `    lint: ${lintFindings.length === 0 ? 'no warning' : `${lintFindings.length} finding(s)`}`,
    );
    if (lintFindings.length > 0) {
      failures.push(`supabase db lint:\n${lint.stdout}\n${lint.stderr}`);
    }

    const types = await timed(
      'supabase gen types typescript',
      () => cli(['gen', 'types', 'typescript', `--remote=${owner}`, '--schema', 'public']).stdout,
    );
    if (update) {
      writeFileSync(TYPES_FILE, types);
      console.info(`    wrote ${TYPES_FILE}`);
    } else {
      const committed = readFileSync(TYPES_FILE, 'utf8');
      if (committed !== types) {
        failures.push(
          'src/infra/database.types.ts differs from `supabase gen types typescript`: run `npm run test:supabase -- --update` and commit the file.',
        );
      } else {
        console.info('    src/infra/database.types.ts is current');
      }
    }

    const live = await timed('the live schema read, one file per rule', async () => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        return await liveSchema(client);
      } finally {
        await client.end();
      }
    });
    if (update) {
      writeMirror(SCHEMA_MIRROR, live);
      console.info(`    wrote ${live.size} files in supabase/schema`);
    } else {
      const differences = mirrorDifferences(SCHEMA_MIRROR, live);
      if (differences.length > 0) {
        failures.push(
          `supabase/schema differs from the live schema (${differences.length} files):\n  ${differences.slice(0, 20).join('\n  ')}\nRun \`npm run test:supabase -- --update\` and commit supabase/schema with its migration.`,
        );
      } else {
        console.info(`    supabase/schema is current (${live.size} files)`);
      }
    }
  } finally {
    await cluster.stop();
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
  console.info(`Supabase CLI check passed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
