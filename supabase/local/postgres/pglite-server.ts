/**
 * PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so that PostgREST,
 * node-postgres and psql can talk to it.
 *
 * PGlite is one Postgres session. `@electric-sql/pglite-socket` multiplexes socket connections
 * onto it message by message and keeps an explicit transaction (BEGIN … COMMIT) on the connection
 * that opened it. That is not enough for the extended query protocol outside a transaction:
 * Parse/Bind/Execute/Sync of one client could interleave with another client's messages, and a
 * second client's Parse (or any simple Query) replaces the unnamed statement the first client is
 * about to bind, or lands in its implicit transaction. `SessionQueue` (session-queue.ts) therefore gives a
 * connection the session from its first message until Postgres is idle again: the last message
 * was a Sync or a simple Query (both end with ReadyForQuery) and no transaction block is open.
 * It plugs into the package's own connection handler.
 *
 * PGlite has one user, the superuser `postgres`. A connection that logs in as another role (the
 * startup message's `user`, e.g. PostgREST as `authenticator`) gets the session with
 * `SET SESSION AUTHORIZATION <role>` for each of its exchanges, so it has exactly that role's
 * rights, as a login on a real server would (PGlite checks no password).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';

import { SessionQueue } from './session-queue.ts';

const EXTENSIONS = { btree_gist, pgcrypto, uuid_ossp };

/**
 * Calls `onDrop` when a JavaScript error (a RangeError: the engine's stack overflowed) leaves
 * Postgres' main loop. PGlite catches only Postgres' own longjmp (an ExitStatus) there and
 * swallows anything else: this wraps the loop to see it.
 */
function watchForDrops(db: PGlite, onDrop: () => void): void {
  const mod = (db as unknown as { mod: Record<string, unknown> }).mod;
  const loop = mod._PostgresMainLoopOnce as (...args: unknown[]) => unknown;
  mod._PostgresMainLoopOnce = (...args: unknown[]) => {
    try {
      return loop(...args);
    } catch (error) {
      if (error instanceof Error) onDrop();
      throw error;
    }
  };
}

/**
 * Compiles Postgres' WebAssembly with V8's baseline compiler only. Measured here (2 cores):
 * a start costs ~3 s of CPU instead of ~7 s (TurboFan recompiling the hot parts of a 10 MB module
 * in the background), and a PostgREST read costs no more CPU. KIRAA_PGLITE_OPTIMIZE=1 keeps
 * V8's default tiering.
 */
function preferFastWasmStart(): void {
  if (process.env.KIRAA_PGLITE_OPTIMIZE !== '1') setFlagsFromString('--liftoff-only');
}

/** Where the pristine cluster of this PGlite version is kept (git-ignored, like any cache). */
function templateDir(): string {
  const require = createRequire(import.meta.url);
  // …/@electric-sql/pglite/dist/index.cjs → the package's own directory.
  const pkgDir = resolve(dirname(require.resolve('@electric-sql/pglite')), '..');
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return resolve(pkgDir, '../../.cache/kiraa/pglite', version);
}

function isEmpty(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * A fresh data directory starts as a copy of a pristine cluster instead of running initdb (the
 * slowest part of a first start, ~5 s). The template is made once per PGlite version, in a
 * temporary directory renamed into place, so concurrent first starts cannot see half of one.
 */
async function seedFromTemplate(dataDir: string): Promise<void> {
  const template = templateDir();
  if (!existsSync(join(template, 'PG_VERSION'))) {
    mkdirSync(dirname(template), { recursive: true });
    const building = mkdtempSync(`${template}.tmp-`);
    try {
      const db = await PGlite.create({ dataDir: building });
      await db.close();
      renameSync(building, template);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      // Another process won the race: use its template.
      if (!existsSync(join(template, 'PG_VERSION'))) throw error;
    }
  }
  // Copied aside then renamed: an interrupted copy never looks like a database.
  const copying = `${dataDir}.copying`;
  rmSync(copying, { recursive: true, force: true });
  cpSync(template, copying, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(copying, dataDir);
}

export type PgliteServerOptions = {
  /** Where PGlite keeps its files; created (initdb) when empty. */
  dataDir: string;
  host?: string;
  /** 0 = any free port. */
  port: number;
  maxConnections?: number;
  /** Told when PGlite drops a statement without an answer (the client gets an error). */
  log?: (message: string) => void;
};

export type PgliteServer = {
  port: number;
  /** A URL for node-postgres / PostgREST / psql. */
  url: string;
  stop(): Promise<void>;
};

/** Listens first (a taken port fails fast, before PGlite loads), then opens the database. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startPgliteServer(options: PgliteServerOptions): Promise<PgliteServer> {
  const host = options.host ?? '127.0.0.1';
  const maxConnections = options.maxConnections ?? 16;
  const sockets = new Set<Socket>();
  let queue: SessionQueue | null = null;

  const server = createServer((socket) => {
    if (!queue || sockets.size >= maxConnections) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    void handler.attach(socket);
  });
  const port = await listen(server, options.port, host);

  let sessions: SessionQueue | null = null;
  const open = async () => {
    const opened = await PGlite.create({ dataDir: options.dataDir, extensions: EXTENSIONS });
    watchForDrops(opened, () => sessions?.noteDroppedStatement());
    return opened;
  };
  let db: PGlite;
  try {
    preferFastWasmStart();
    if (isEmpty(options.dataDir)) await seedFromTemplate(options.dataDir);
    db = await open();
  } catch (error) {
    server.close();
    throw error;
  }
  sessions = new SessionQueue(
    db,
    async () => {
      for (const socket of sockets) socket.destroy();
      return open();
    },
    options.log,
  );
  queue = sessions;
  const running = sessions;

  return {
    port,
    url: `postgresql://postgres:postgres@${host}:${port}/postgres?sslmode=disable`,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await running.close();
      await running.database.close();
    },
  };
}
