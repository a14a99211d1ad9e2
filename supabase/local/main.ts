/**
 * `npm start`  – builds the app (when its sources changed), starts the local stack and serves the
 *                built app at http://localhost:4173.
 * `npm run dev` – the local stack and Vite's dev server (http://localhost:5173).
 * `npm run stack` – the local stack only.
 *
 * Options: `--rebuild` (start: build even when nothing changed). Environment (docs/local-stack.md):
 * DATABASE_URL, KIRAA_DATA_DIR, KIRAA_DIST_DIR, KIRAA_ENV_FILE, KIRAA_API_PORT, KIRAA_DB_PORT,
 * KIRAA_APP_PORT, KIRAA_DEV_PORT; JWT_SECRET, ANON_KEY, SERVICE_ROLE_KEY replace the development
 * keys.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { join, relative, resolve } from 'node:path';

import { buildApp } from './build.ts';
import {
  DEFAULT_DATA_DIR,
  DEFAULT_PORTS,
  DEMO_ACCOUNTS,
  PATHS,
  ROOT_DIR,
  portFromEnv,
  resolveKeys,
} from './config.ts';
import { listen } from './pglite-server.ts';
import { loadSettings } from './settings.ts';
import { PortInUseError, startStack, type Stack } from './stack.ts';
import { createStaticHandler } from './static-server.ts';

type Command = 'start' | 'dev' | 'stack';

const log = (message: string) => console.info(message);
const closers: Array<() => Promise<void> | void> = [];
let shuttingDown = 0;

/**
 * Stops everything we started, newest first, then exits. A second Ctrl-C exits at once; one
 * within a second of the first is the same Ctrl-C relayed by npm/tsx and is ignored.
 */
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) {
    if (Date.now() - shuttingDown > 1000) process.exit(code);
    return;
  }
  shuttingDown = Date.now();
  const force = setTimeout(() => process.exit(code), 8000);
  force.unref();
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch (error) {
      console.error(`while stopping: ${(error as Error).message}`);
    }
  }
  process.exit(code);
}

/** Failures we expect (a taken port, a broken migration, a failed build) need no stack trace. */
const EXPLAINED = new Set([
  'PortInUseError',
  'DataDirInUseError',
  'MigrationError',
  'BuildError',
  'UnsupportedSettingError',
]);

function fail(error: unknown): Promise<void> {
  if (error instanceof Error && EXPLAINED.has(error.name)) console.error(`\n${error.message}\n`);
  else console.error(error);
  return shutdown(1);
}

/** `.env.local` for Vite and for server-side scripts (git-ignored). Rewritten only when it changes. */
function writeEnvLocal(stack: Stack, file: string): void {
  const content = [
    '# Written by `npm start` / `npm run dev` / `npm run stack`: the local stack. Git-ignored.',
    `VITE_SUPABASE_URL=${stack.apiUrl}`,
    `VITE_SUPABASE_ANON_KEY=${stack.anonKey}`,
    '# Server side only: never prefix it with VITE_ (it would be bundled into the app).',
    `SUPABASE_SERVICE_ROLE_KEY=${stack.serviceRoleKey}`,
    '',
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (current !== content) writeFileSync(file, content);
}

async function listenOrExplain(
  server: Server,
  port: number,
  what: string,
  envName: string,
): Promise<number> {
  try {
    return await listen(server, port, '127.0.0.1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new PortInUseError(port, what, envName);
    throw error;
  }
}

async function demoAccounts(stack: Stack): Promise<string[]> {
  try {
    const { rows } = await stack.db.query<{ email: string }>(
      'select email from auth.users where email = any($1::text[])',
      [DEMO_ACCOUNTS.map((account) => account.email)],
    );
    const present = new Set(rows.map((row) => row.email));
    return DEMO_ACCOUNTS.filter((account) => present.has(account.email)).map(
      (account) => `${account.email} / ${account.password} (${account.role})`,
    );
  } catch {
    return [];
  }
}

/** A path relative to the working directory when it is inside it. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

async function banner(stack: Stack, urls: Array<[string, string]>): Promise<void> {
  const accounts = await demoAccounts(stack);
  const rows: Array<[string, string]> = [
    ...urls,
    ['API', `${stack.apiUrl}  (/rest/v1, /auth/v1, /storage/v1, /functions/v1)`],
    ['Edge Functions', `${stack.functions.names.join(', ')}  (Deno, docs/functions.md)`],
    ['Mailbox', stack.mailboxUrl],
    ['Database', `${stack.dbUrl}  (${stack.engine === 'pglite' ? 'PGlite' : 'DATABASE_URL'})`],
    ['anon key', stack.anonKey],
    ['service_role key', `${stack.serviceRoleKey}  (server side only)`],
    ['Demo accounts', accounts[0] ?? 'none (supabase/seed.sql was not applied to this database)'],
    ...accounts.slice(1).map((account): [string, string] => ['', account]),
    ['Data', `${displayPath(stack.dataDir)}/  (delete it to start from scratch)`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  log(
    `\nKiraa is running.\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n\nPress Ctrl-C to stop.\n`,
  );
}

async function main(command: Command, args: string[]): Promise<void> {
  const env = process.env;
  // supabase/config.toml first: a setting the local stack cannot emulate stops it here.
  const settings = loadSettings(PATHS.config, env);
  const apiPort = portFromEnv('KIRAA_API_PORT', settings.api.port);
  const appPort = portFromEnv('KIRAA_APP_PORT', DEFAULT_PORTS.app);
  const devPort = portFromEnv('KIRAA_DEV_PORT', DEFAULT_PORTS.dev);
  const dataDir = resolve(env.KIRAA_DATA_DIR || DEFAULT_DATA_DIR);
  const distDir = resolve(env.KIRAA_DIST_DIR || PATHS.dist);
  const envFile = resolve(env.KIRAA_ENV_FILE || PATHS.envLocal);
  const appOrigin = `http://localhost:${command === 'dev' ? devPort : appPort}`;
  const started = Date.now();

  // The app's port first, so a taken port fails before the slow work. Until the build is
  // served, the app's address says so instead of refusing connections.
  let serveApp: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '2' });
    res.end('Kiraa is starting…');
  };
  if (command === 'start') {
    const server = createServer((req, res) => serveApp(req, res));
    await listenOrExplain(server, appPort, 'the app', 'KIRAA_APP_PORT');
    closers.push(
      () =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
    );
  }

  const stackPromise = startStack({
    apiPort,
    dbPort: portFromEnv('KIRAA_DB_PORT', settings.db.port),
    dataDir,
    appOrigins: [appOrigin, `http://127.0.0.1:${command === 'dev' ? devPort : appPort}`],
    siteUrl: appOrigin,
    log,
    onFatal: (error) => {
      console.error(`\n${error.message}\nThe local stack cannot serve any more: stopping.`);
      void shutdown(1);
    },
  });
  // Registered at once: a Ctrl-C during the start still stops what already runs.
  closers.push(async () => {
    const stack = await stackPromise.catch(() => null);
    await stack?.stop();
  });

  // Known before the stack is up, so the build runs while it starts.
  const keys = resolveKeys(env);
  const viteEnv = {
    VITE_SUPABASE_URL: apiPort ? `http://localhost:${apiPort}` : (await stackPromise).apiUrl,
    VITE_SUPABASE_ANON_KEY: keys.anonKey,
  };

  if (command === 'start') {
    const [stack] = await Promise.all([
      stackPromise,
      buildApp({
        env: viteEnv,
        outDir: distDir,
        stampFile: join(dataDir, 'build-stamp'),
        serviceRoleKey: keys.serviceRoleKey,
        force: args.includes('--rebuild'),
        log,
        onChild: (child) =>
          closers.push(() => {
            if (child.exitCode === null) child.kill('SIGTERM');
          }),
      }),
    ]);
    writeEnvLocal(stack, envFile);
    serveApp = createStaticHandler(distDir);
    log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    await banner(stack, [['App', appOrigin]]);
    return;
  }

  const stack = await stackPromise;
  writeEnvLocal(stack, envFile);
  if (command === 'dev') {
    Object.assign(process.env, viteEnv);
    const { createServer: createViteServer } = await import('vite');
    const vite = await createViteServer({
      root: ROOT_DIR,
      server: { port: devPort, strictPort: true, host: 'localhost' },
    });
    closers.push(() => vite.close());
    await vite.listen().catch((error: Error) => {
      throw /in use/i.test(error.message)
        ? new PortInUseError(devPort, 'the Vite dev server', 'KIRAA_DEV_PORT')
        : error;
    });
    log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    await banner(stack, [['App (dev)', appOrigin]]);
    return;
  }
  log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  await banner(stack, []);
}

const command = process.argv[2];
if (command !== 'start' && command !== 'dev' && command !== 'stack') {
  console.error('Usage: tsx supabase/local/main.ts start|dev|stack [--rebuild]');
  process.exit(2);
}
process.on('SIGINT', () => {
  if (!shuttingDown) log('\nStopping…');
  void shutdown(0);
});
process.on('SIGTERM', () => void shutdown(0));
process.on('uncaughtException', (error) => void fail(error));
process.on('unhandledRejection', (error) => void fail(error));
main(command, process.argv.slice(3)).catch(fail);
