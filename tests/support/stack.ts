/**
 * A local stack for tests: free ports, a temporary data directory, PGlite by default or a
 * throwaway PostgreSQL cluster (`db: 'postgres'`, or KIRAA_TEST_DB=postgres). Works inside and
 * outside Vitest (Playwright's global setup uses it too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import type { SettingsOverrides } from '../../supabase/local/settings.ts';
import { startStack, type Stack, type StackOptions } from '../../supabase/local/stack.ts';
import { startPostgres, type PostgresCluster } from './postgres.ts';

export type TestDbEngine = 'pglite' | 'postgres';

export type TestStackOptions = {
  /** Default: KIRAA_TEST_DB, else 'pglite'. */
  db?: TestDbEngine;
  /**
   * Reuse this data directory (it is then not removed on stop). Default: a fresh temporary one,
   * removed on stop.
   */
  dataDir?: string;
  /** Use this server instead of starting a cluster (with db 'postgres'). */
  databaseUrl?: string;
  /** CORS origins besides localhost, and the site URL used in mails. */
  appOrigins?: string[];
  siteUrl?: string;
  /** See GatewayOptions.trustProxyHeaders (default true: tests simulate clients with X-Forwarded-For). */
  trustProxyHeaders?: boolean;
  /**
   * Settings that differ from supabase/config.toml. Test stacks turn e-mail confirmation off
   * unless a test asks for it (`{auth: {email: {enableConfirmations: true}}}`): most tests need a
   * session right after sign-up; the confirmation journey has its own stack.
   */
  settings?: SettingsOverrides;
  /** Tunables the stack reads from its environment (`KIRAA_AUTH_*`); nothing else is passed. */
  authEnv?: Record<string, string>;
  /** Print the stack's log lines (default: KIRAA_TEST_VERBOSE=1). They are kept in `logs` anyway. */
  verbose?: boolean;
} & Pick<
  StackOptions,
  'migrationsDir' | 'seedFile' | 'apiPort' | 'anonWriteLimit' | 'functionsEnvFile'
>;

/**
 * Test suites script hundreds of anonymous writes from one address in seconds (600 quotes, for
 * one): their stacks allow that. tests/api/stack.test.ts checks the real limit (ANON_WRITES) on a
 * stack of its own.
 */
export const TEST_ANON_WRITE_LIMIT = { perSecond: 1000, burst: 10_000 } as const;

export type TestStack = Stack & {
  /** Every line the stack logged. */
  logs: string[];
  /** The PostgreSQL cluster started for this stack, if any. */
  postgres: PostgresCluster | null;
};

/** What the API tests receive through Vitest's provide/inject (plain data). */
export type TestStackInfo = {
  apiUrl: string;
  /**
   * PostgREST itself, without the gateway: what a hosted project exposes at /rest/v1 with nothing
   * of our local gateway in front (tests of rules that must hold in SQL call it directly).
   */
  postgrestUrl: string;
  dbUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** The secret this stack's send-email function checks hook calls with (drawn per stack). */
  sendEmailHookSecret: string;
  /** The secret webhooks and schedules call the functions with (Vault `function_call_secret`). */
  functionCallSecret: string;
  mailboxUrl: string;
  /** The local push service and dev push inbox. */
  pushUrl: string;
  /** The application server key push-send signs with (what the app subscribes with). */
  vapidPublicKey: string;
  engine: TestDbEngine;
  dataDir: string;
  /** Why there is no stack in this run (every test is skipped). */
  skipped?: string;
};

export function testDbEngine(env = process.env): TestDbEngine {
  const value = env.KIRAA_TEST_DB ?? 'pglite';
  if (value !== 'pglite' && value !== 'postgres') {
    throw new Error(`KIRAA_TEST_DB must be "pglite" or "postgres", got "${value}".`);
  }
  return value;
}

/** How the stack's services log a failure they answered with a 5xx (auth, gateway, hooks). */
const UNEXPECTED_FAILURE = / failed( after answering)?: /;

export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const engine = options.db ?? testDbEngine();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kiraa-stack-'));
  const verbose = options.verbose ?? process.env.KIRAA_TEST_VERBOSE === '1';
  const logs: string[] = [];
  const log = (line: string) => {
    logs.push(line);
    if (verbose) console.info(`[stack] ${line}`);
    // A service's unexpected failure (an answer of 500 or 502, its cause in the line) is printed
    // even when quiet: a test that sees only the status can then be traced from the CI log.
    else if (UNEXPECTED_FAILURE.test(line)) console.error(`[stack] ${line}`);
  };

  let postgres: PostgresCluster | null = null;
  let databaseUrl: string | null = null;
  if (engine === 'postgres') {
    if (options.databaseUrl) {
      databaseUrl = options.databaseUrl;
    } else {
      postgres = await startPostgres();
      databaseUrl = postgres.url;
    }
  }

  try {
    const stack = await startStack({
      apiPort: options.apiPort ?? 0,
      dbPort: 0,
      dataDir,
      databaseUrl,
      appOrigins: options.appOrigins ?? ['http://localhost:4173'],
      siteUrl: options.siteUrl,
      migrationsDir: options.migrationsDir,
      seedFile: options.seedFile,
      functionsEnvFile: options.functionsEnvFile,
      // Tests simulate several clients (rate limits per IP) with X-Forwarded-For.
      trustProxyHeaders: options.trustProxyHeaders ?? true,
      anonWriteLimit:
        options.anonWriteLimit === undefined ? TEST_ANON_WRITE_LIMIT : options.anonWriteLimit,
      // The developer keys, whatever the environment says.
      env: { ...options.authEnv },
      settings: {
        ...options.settings,
        auth: {
          ...options.settings?.auth,
          email: { enableConfirmations: false, ...options.settings?.auth?.email },
        },
      },
      log,
      onFatal: (error) => console.error(`[stack] ${error.message}`),
    });
    await registerTestMailDomains(stack.dbUrl);
    const stop = stack.stop;
    return {
      ...stack,
      logs,
      postgres,
      async stop() {
        await stop();
        await postgres?.stop();
        if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await postgres?.stop();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The mail domains of test addresses (tests/support/supabase.ts `uniqueEmail`, the e2e accounts)
 * count like public mail providers: each simulated traveller has a mailbox of their own, where
 * the rule of docs/decisions.md ("Who may hold the fleet") would make the whole suite one source.
 * Tests of that rule use other domains.
 */
export const TEST_MAIL_DOMAINS = ['kiraa.test', 'example.dz'] as const;

async function registerTestMailDomains(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    // (A stack of other migrations may have no such table.)
    const { rows } = await client.query<{ found: boolean }>(
      `select to_regclass('internal.mail_providers') is not null as found`,
    );
    if (!rows[0]?.found) return;
    await client.query(
      `insert into internal.mail_providers (domain) select unnest($1::text[])
       on conflict (domain) do nothing`,
      [TEST_MAIL_DOMAINS],
    );
  } finally {
    await client.end();
  }
}

export function stackInfo(stack: TestStack): TestStackInfo {
  return {
    apiUrl: stack.apiUrl,
    postgrestUrl: `http://127.0.0.1:${stack.postgrest.port}`,
    dbUrl: stack.dbUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
    sendEmailHookSecret: stack.functionSecrets.SEND_EMAIL_HOOK_SECRET ?? '',
    functionCallSecret: stack.functionSecrets.FUNCTION_CALL_SECRET ?? '',
    mailboxUrl: stack.mailboxUrl,
    pushUrl: stack.pushUrl,
    vapidPublicKey: stack.vapid.publicKey,
    engine: stack.engine,
    dataDir: stack.dataDir,
  };
}
