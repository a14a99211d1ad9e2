/**
 * The local Supabase-compatible stack in one process: Postgres (PGlite, or the server named by
 * DATABASE_URL), migrations and seed, PostgREST, the API gateway with auth, storage, the Edge
 * Functions (Deno) and the dev mailbox, and the workers of the pg_cron and pg_net stand-ins.
 * `npm start`, `npm run dev`, `npm run stack` and every test suite start it through `startStack`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createHttpServer } from './gateway/http-server.ts';
import { resolve } from 'node:path';

import { configureAuthApi } from './auth/index.ts';
import { authOptionsFromEnv, authOptionsFromSettings } from './auth/options.ts';
import {
  DEFAULT_DATA_DIR,
  newSendEmailHookSecret,
  PATHS,
  ROOT_DIR,
  dataPaths,
  devMailApiKey,
  resolveKeys,
  resolveVapidKeys,
  type VapidKeys,
} from './config.ts';
import type { Db, ServiceContext, StackConfig } from './context.ts';
import { readFunctions, readSecrets } from './functions/config.ts';
import { createEdgeRuntime, type EdgeRuntime } from './functions/runtime.ts';
import type { RateLimitOptions } from './gateway/gateway-guards.ts';
import { createGateway } from './gateway/gateway.ts';
import { startNetWorker, type NetWorker } from './gateway/net.ts';
import { Mailbox } from './mailbox/mailbox.ts';
import { createDb } from './postgres/db.ts';
import { migrate, type MigrateResult } from './postgres/migrate.ts';
import { listen, startPgliteServer, type PgliteServer } from './postgres/pglite-server.ts';
import { installSchemaWatch, pollSchemaVersion } from './postgres/schema-watch.ts';
import { storeVaultSecrets } from './postgres/vault.ts';
import { asAuthenticator, postgrestUri } from './postgrest/login.ts';
import { Postgrest, killStalePostgrest } from './postgrest/postgrest.ts';
import { PushService } from './push/push-service.ts';
import {
  loadSettings,
  withOverrides,
  type ProjectSettings,
  type SettingsOverrides,
} from './settings.ts';
import { SigningKeys } from './signing-keys.ts';
import { PortInUseError, lockDataDir, isAddressInUse } from './stack-locks.ts';
import { createStorageApi } from './storage/index.ts';
import { startCron, type CronWorker } from './workers/cron.ts';

export type StackOptions = {
  /** Gateway port (default 54321; 0 = any free port). */
  apiPort?: number;
  /** PGlite's wire-protocol port (default 54322; 0 = any free port). Unused with DATABASE_URL. */
  dbPort?: number;
  /** Interface the gateway and PGlite listen on (default 127.0.0.1). */
  host?: string;
  /** Where data lives: `db/` (PGlite), `storage/`, `mail.json` (default `.kiraa/`). */
  dataDir?: string;
  /** A PostgreSQL server to use instead of PGlite (default: the DATABASE_URL variable). */
  databaseUrl?: string | null;
  /** Origins allowed by CORS besides localhost (default http://localhost:4173). */
  appOrigins?: string[];
  /** Where the app lives, for links in mails (default http://localhost:4173). */
  siteUrl?: string;
  /** See GatewayOptions.trustProxyHeaders. */
  trustProxyHeaders?: boolean;
  /** See GatewayOptions.anonWriteLimit (default: ANON_WRITES). */
  anonWriteLimit?: RateLimitOptions | null;
  /** The Edge Functions' secrets file (default supabase/functions/.env). */
  functionsEnvFile?: string;
  /** Applied migrations and seed (default: the repository's). */
  migrationsDir?: string;
  seedFile?: string;
  env?: NodeJS.ProcessEnv;
  /** The VAPID keys (default: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else a new pair). */
  vapid?: VapidKeys;
  /** Settings that differ from supabase/config.toml (test stacks). */
  settings?: SettingsOverrides;
  log?: (message: string) => void;
  /** Called when the stack can no longer serve (PostgREST keeps crashing). */
  onFatal?: (error: Error) => void;
};

export type Stack = {
  apiUrl: string;
  /** A superuser URL of the database (PGlite's socket, or DATABASE_URL). */
  dbUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** The ES256 signing keys (`<dataDir>/signing-keys.json`; docs/auth.md, "Signing keys"). */
  signingKeys: SigningKeys;
  /**
   * Reads the key file again now (after a rotation) and waits until PostgREST verifies with the
   * new JWKS. A running stack also notices a change by itself within a second.
   */
  reloadSigningKeys(): Promise<void>;
  mailbox: Mailbox;
  mailboxUrl: string;
  /** The local push service and the dev push inbox (`/push`). */
  push: PushService;
  pushUrl: string;
  /** What push-send signs with; the public key is the app's VITE_VAPID_PUBLIC_KEY. */
  vapid: VapidKeys;
  /** The Edge Functions served at /functions/v1. */
  functions: EdgeRuntime;
  /** pg_net's stand-in: its worker sends what `net.http_post` queued. */
  net: NetWorker;
  /** pg_cron's stand-in: `run(jobname)` runs a scheduled job now. */
  cron: CronWorker;
  /** The secrets the functions get besides SUPABASE_* (local defaults, then the .env file). */
  functionSecrets: Record<string, string>;
  dataDir: string;
  engine: 'pglite' | 'postgres';
  migrations: MigrateResult;
  postgrest: Postgrest;
  /** The pool the API handlers use (superuser; `asClaims` for RLS). */
  db: Db;
  /** What the stack runs with: supabase/config.toml and the options' overrides. */
  settings: ProjectSettings;
  stop(): Promise<void>;
};

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => console.info(message));
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const paths = dataPaths(dataDir);
  const databaseUrl =
    options.databaseUrl === undefined ? env.DATABASE_URL || null : options.databaseUrl;
  const keys = resolveKeys(env);
  const settings = withOverrides(loadSettings(PATHS.config, env), options.settings);
  mkdirSync(paths.storage, { recursive: true });
  const unlock = lockDataDir(dataDir, paths.lock);
  let signingKeys: SigningKeys;
  try {
    signingKeys = new SigningKeys(paths.signingKeys, keys.jwtSecret);
  } catch (error) {
    unlock();
    throw error;
  }
  writeFileSync(paths.postgrestJwks, signingKeys.postgrestJwks(), { mode: 0o600 });

  const cleanups: Array<() => Promise<void> | void> = [unlock, () => signingKeys.close()];
  async function cleanup(): Promise<void> {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        log(`stopping: ${(error as Error).message}`);
      }
    }
  }

  try {
    // The gateway's port first: a taken port fails before anything heavy starts.
    let handle: RequestListener = (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'The local stack is starting' }));
    };
    const server = createHttpServer((req, res) => handle(req, res));
    let apiPort: number;
    try {
      apiPort = await listen(server, options.apiPort ?? settings.api.port, host);
    } catch (error) {
      if (isAddressInUse(error))
        throw new PortInUseError(
          options.apiPort ?? settings.api.port,
          'the API gateway',
          'KIRAA_API_PORT',
        );
      throw error;
    }
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
    );
    const urlHost =
      host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    const apiUrl = `http://${urlHost}:${apiPort}`;

    let pglite: PgliteServer | null = null;
    let dbUrl: string;
    if (databaseUrl) {
      dbUrl = databaseUrl;
    } else {
      try {
        pglite = await startPgliteServer({
          dataDir: paths.db,
          host: '127.0.0.1',
          port: options.dbPort ?? settings.db.port,
          log,
        });
      } catch (error) {
        if (isAddressInUse(error))
          throw new PortInUseError(
            options.dbPort ?? settings.db.port,
            'the Postgres socket of PGlite',
            'KIRAA_DB_PORT',
          );
        throw error;
      }
      const server = pglite;
      cleanups.push(() => server.stop());
      dbUrl = pglite.url;
    }

    const migrations = await migrate({
      url: dbUrl,
      bootstrapFile: PATHS.bootstrap,
      extensionsFile: PATHS.extensions,
      migrationsDir: options.migrationsDir ?? PATHS.migrations,
      seedFile: options.seedFile ?? PATHS.seed,
      log,
    });

    const db = createDb({ url: dbUrl, max: pglite ? 4 : 10 });
    cleanups.push(() => db.close());

    await installSchemaWatch(db).catch((error: Error) =>
      log(`PostgREST will not reload its schema cache after DDL by itself: ${error.message}`),
    );
    const mailbox = new Mailbox(paths.mail);
    cleanups.push(() => mailbox.flushed());
    const vapid = options.vapid ?? resolveVapidKeys(env);
    const push = new PushService(paths.push);

    killStalePostgrest(paths.postgrestPid);
    const postgrest = new Postgrest({
      publicUrl: `${apiUrl}/rest/v1/`,
      // As on Supabase, PostgREST logs in as `authenticator`, which can only become the API roles.
      dbUri: pglite ? asAuthenticator(dbUrl) : await postgrestUri(dbUrl, keys.jwtSecret, log),
      // PostgREST verifies with the JWKS (ES256 by kid) and the legacy secret (an `oct` key).
      jwtSecret: `@${paths.postgrestJwks}`,
      api: settings.api,
      pglite: pglite !== null,
      pidFile: paths.postgrestPid,
      log,
      onFatal: (error) => {
        log(error.message);
        options.onFatal?.(error);
      },
    });
    cleanups.push(() => postgrest.stop());
    await postgrest.start();
    // A rotation (npm run keys): PostgREST gets the new JWKS; auth and storage read it directly.
    let keysReloaded: Promise<void> = Promise.resolve();
    signingKeys.onChange(() => {
      writeFileSync(paths.postgrestJwks, signingKeys.postgrestJwks(), { mode: 0o600 });
      keysReloaded = postgrest.reloadConfig();
    });
    signingKeys.watch();
    if (pglite) {
      const watch = pollSchemaVersion(db, () => postgrest.reloadSchema());
      cleanups.push(() => watch.stop());
    }

    const appOrigins = options.appOrigins ?? [new URL(settings.auth.siteUrl).origin];
    const config: StackConfig = {
      apiUrl,
      appOrigins,
      siteUrl: options.siteUrl ?? settings.auth.siteUrl,
      jwtSecret: keys.jwtSecret,
      signingKeys,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtExpiry: settings.auth.jwtExpiry,
      auth: settings.auth,
      storageDir: paths.storage,
    };
    const ctx: ServiceContext = { db, config, mailer: mailbox, log };

    // The Edge Functions reach the gateway as the platform's do (SUPABASE_URL), on 127.0.0.1.
    const internalUrl = `http://127.0.0.1:${apiPort}`;
    const mailApiKey = devMailApiKey(keys.jwtSecret);
    mailbox.apiKey = mailApiKey;
    const functionSecrets: Record<string, string> = {
      MAIL_API_URL: `${internalUrl}/mailbox/api/emails`,
      MAIL_API_KEY: mailApiKey,
      MAIL_FROM: 'Kiraa <no-reply@kiraa.local>',
      // The secret the local auth signs with when its hook is on, else one of this stack's own.
      SEND_EMAIL_HOOK_SECRET:
        settings.auth.hooks.sendEmail?.secrets ||
        env.SEND_EMAIL_HOOK_SECRET ||
        newSendEmailHookSecret(),
      // What webhooks and schedules call with (Vault `function_call_secret`), drawn per stack.
      FUNCTION_CALL_SECRET: randomBytes(32).toString('base64url'),
      // send-email states the links' lifetime: config.toml's, as the local auth service does.
      OTP_EXPIRY_SECONDS: String(config.auth.email.otpExpiry),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: vapid.subject,
      // The local push service is plain http: push-send accepts it only when named here.
      PUSH_LOCAL_ORIGIN: internalUrl,
      ...readSecrets(options.functionsEnvFile ?? PATHS.functionsEnv),
    };
    const functions = createEdgeRuntime({
      functions: readFunctions(PATHS.functions, PATHS.config),
      denoConfig: PATHS.denoConfig,
      readRoot: ROOT_DIR,
      cacheDir: PATHS.denoCache,
      env: {
        ...functionSecrets,
        SUPABASE_URL: internalUrl,
        SUPABASE_ANON_KEY: keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
        SUPABASE_DB_URL: dbUrl,
      },
      jwtSecret: keys.jwtSecret,
      signingKeys,
      log,
    });
    cleanups.push(() => functions.stop());
    // What pg_cron and pg_net jobs call: this gateway, with the function-call secret (Vault).
    await storeVaultSecrets(db, {
      project_url: internalUrl,
      function_call_secret: functionSecrets.FUNCTION_CALL_SECRET!,
    });
    // The local push service is one of the push services the database lets push-send reach
    // (internal.push_services: https only on a hosted project; this http row exists only here).
    push.setBaseUrl(internalUrl);
    await db.query(
      `delete from internal.push_services where scheme = 'http';
       insert into internal.push_services (scheme, host, port, note)
       values ('http', '127.0.0.1', ${apiPort}, 'the local stack''s push service')`,
    );

    const gateway = createGateway({
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: keys.jwtSecret,
      signingKeys,
      appOrigins,
      postgrest,
      auth: configureAuthApi(authOptionsFromEnv(env, authOptionsFromSettings(settings.auth)))(ctx),
      storage: createStorageApi(ctx),
      mailbox,
      push,
      functions,
      anonWriteLimit: options.anonWriteLimit,
      trustProxyHeaders: options.trustProxyHeaders ?? false,
      log,
    });
    cleanups.push(() => gateway.close());
    handle = gateway.handle;

    const net = startNetWorker(db, log);
    cleanups.push(() => net.stop());
    const cron = startCron(db, log);
    cleanups.push(() => cron.stop());
    // Mail queued while the stack was down goes now, not at the next minute's sweep.
    void cron.run('send-mail-sweep').catch(() => {});

    let stopping: Promise<void> | null = null;
    return {
      apiUrl,
      dbUrl,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: keys.jwtSecret,
      signingKeys,
      async reloadSigningKeys() {
        signingKeys.refresh();
        await keysReloaded;
      },
      mailbox,
      mailboxUrl: `${apiUrl}/mailbox`,
      push,
      pushUrl: `${apiUrl}/push`,
      vapid,
      functions,
      net,
      cron,
      functionSecrets,
      dataDir,
      engine: pglite ? 'pglite' : 'postgres',
      migrations,
      postgrest,
      db,
      settings,
      stop() {
        stopping ??= cleanup();
        return stopping;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
