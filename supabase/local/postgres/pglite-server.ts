/**
 * PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so that PostgREST,
 * node-postgres and psql can talk to it.
 *
 * PGlite is one Postgres session. `@electric-sql/pglite-socket` multiplexes socket connections
 * onto it message by message and keeps an explicit transaction (BEGIN … COMMIT) on the connection
 * that opened it. That is not enough for the extended query protocol outside a transaction:
 * Parse/Bind/Execute/Sync of one client could interleave with another client's messages, and a
 * second client's Parse (or any simple Query) replaces the unnamed statement the first client is
 * about to bind, or lands in its implicit transaction. `SessionQueue` below therefore gives a
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
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

type Item = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
};

/** Frontend messages that leave Postgres at ReadyForQuery (startup messages have no type byte). */
function endsExchange(message: Uint8Array): boolean {
  const type = message[0];
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}

function frame(type: number, body: Buffer = Buffer.alloc(0)): Uint8Array {
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([header, body]));
}

const ROLLBACK_MESSAGE = frame(QUERY, Buffer.from('ROLLBACK\0', 'utf8'));
/** PGlite's own user: connections that log in as it need no switch. */
const SUPERUSER = 'postgres';
const PROTOCOL_3 = 196608;

/** The `user` of a StartupMessage (length, protocol 3.0, then name/value C strings), or null. */
export function startupUser(message: Uint8Array): string | null {
  const buffer = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  if (buffer.length < 8 || buffer[0] !== 0 || buffer.readInt32BE(4) !== PROTOCOL_3) return null;
  const parts = buffer.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'user') return parts[i + 1] || null;
  }
  return null;
}

/**
 * The same StartupMessage logging in as PGlite's superuser. PGlite takes the startup's `user` as
 * the session's authenticated user, and one such login would leave the whole shared session
 * without its superuser; the queue switches roles itself instead.
 */
export function startupAsSuperuser(message: Uint8Array): Uint8Array {
  const buffer = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  const parts = buffer.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'user') parts[i + 1] = SUPERUSER;
  }
  const body = Buffer.from(parts.join('\0'), 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(PROTOCOL_3, 4);
  body.copy(out, 8);
  return new Uint8Array(out);
}

function setAuthorization(role: string): Uint8Array {
  const quoted = `"${role.replace(/"/g, '""')}"`;
  return frame(QUERY, Buffer.from(`SET SESSION AUTHORIZATION ${quoted}\0`, 'utf8'));
}

/** Whether a backend answer holds an ErrorResponse ('E') message. */
function hasError(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= buffer.length; at += 1 + buffer.readInt32BE(at + 1)) {
    if (buffer[at] === 0x45) return true;
  }
  return false;
}
const SYNC_MESSAGE = frame(SYNC);

/** An ErrorResponse: severity ERROR, the SQLSTATE and the message. */
function errorResponse(sqlstate: string, message: string): Uint8Array {
  const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`, 'utf8');
  return frame(
    0x45,
    Buffer.concat([
      field('S', 'ERROR'),
      field('V', 'ERROR'),
      field('C', sqlstate),
      field('M', message),
      Buffer.from([0]),
    ]),
  );
}

/**
 * What a client is told when PGlite dropped its statement. A recursion that overflows the
 * WebAssembly engine's stack (a JSON value nested ~7,000 deep) throws a RangeError out of
 * Postgres' main loop; PGlite swallows it (it only expects Postgres' own longjmp) and answers
 * nothing, neither an error nor ReadyForQuery: the client would wait forever, every other
 * connection behind it, and the engine is left inconsistent ("bad buffer ID"). The queue answers
 * Postgres' error for too deep a recursion (54001), then restarts the database as a server
 * restarts: every connection is closed and clients connect again (docs/local-stack.md, "Abuse").
 */
const LOST_MESSAGE = 'stack depth limit exceeded (the database dropped this statement)';

/**
 * The one Postgres session, handed to one connection at a time. Same interface as the package's
 * internal queue as far as PGLiteSocketHandler uses it (enqueue, clearQueueForHandler,
 * clearTransactionIfNeeded).
 */
export class SessionQueue {
  private queue: Item[] = [];
  private processing = false;
  /** Settles when the running loop ends. */
  private idle: Promise<void> = Promise.resolve();
  /** The connection that holds the session until Postgres is idle again. */
  private owner: number | null = null;
  private closed = false;
  /** The role each connection logged in as (absent: PGlite's superuser). */
  private readonly users = new Map<number, string>();
  /** The session's current authorization. */
  private authorization = SUPERUSER;
  constructor(
    private db: PGlite,
    /**
     * After PGlite dropped a statement: opens the database again and closes every connection,
     * as a server restart does (the queue is reset before).
     */
    private readonly restartDatabase: () => Promise<PGlite>,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** The database the queue runs on now (another one after a reopen). */
  get database(): PGlite {
    return this.db;
  }

  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('The database is shutting down'));
        return;
      }
      const user = message[0] === 0 ? startupUser(message) : null;
      if (user && user !== SUPERUSER) {
        this.users.set(handlerId, user);
        message = startupAsSuperuser(message);
      } else if (user) {
        this.users.delete(handlerId);
      }
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  /** Refuses new work and waits for the message in progress, before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    for (const item of this.queue.splice(0))
      item.reject(new Error('The database is shutting down'));
    await this.idle;
  }

  clearQueueForHandler(handlerId: number): void {
    this.users.delete(handlerId);
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection went away: end whatever it left open so the next one starts clean. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId || this.closed) return;
    await this.db.runExclusive(async () => {
      // ROLLBACK ends an open transaction block or an implicit one; it is skipped when an
      // extended-protocol error is pending, and the Sync then ends that failed exchange.
      await this.db.execProtocolRaw(ROLLBACK_MESSAGE);
      await this.db.execProtocolRaw(SYNC_MESSAGE);
      if (this.db.isInTransaction()) await this.db.execProtocolRaw(ROLLBACK_MESSAGE);
    });
    this.owner = null;
    await this.process();
  }

  /**
   * Gives the session the role of the connection whose exchange starts. Called only between
   * exchanges (Postgres idle, no transaction), where a switch cannot split anyone's work.
   */
  private async authorizeFor(handlerId: number): Promise<void> {
    const wanted = this.users.get(handlerId) ?? SUPERUSER;
    if (wanted === this.authorization || this.owner !== null) return;
    // (RESET SESSION AUTHORIZATION does not return PGlite to its superuser; naming it does.)
    const answer = await this.quietly(setAuthorization(wanted));
    if (hasError(answer)) {
      await this.quietly(setAuthorization(SUPERUSER));
      this.authorization = SUPERUSER;
      throw new Error(`role "${wanted}" cannot log in to this database`);
    }
    this.authorization = wanted;
  }

  /**
   * Runs a message of our own and returns its answer. Streamed like the clients' messages: a
   * plain execProtocolRaw between streamed ones may answer nothing and leak its answer into the
   * next client's.
   */
  private async quietly(message: Uint8Array): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    await this.db.execProtocolRawStream(message, { onRawData: (data) => chunks.push(data) });
    return new Uint8Array(Buffer.concat(chunks));
  }

  private next(): Item | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private process(): Promise<void> {
    if (!this.processing) {
      this.processing = true;
      this.idle = this.run();
    }
    return this.idle;
  }

  /**
   * Runs queued messages until none can run now. `processing` is reset in the same tick as the
   * loop ends, so a message enqueued by the continuation of the last one starts a new loop.
   */
  private async run(): Promise<void> {
    try {
      for (let item = this.next(); item && !this.closed; item = this.next()) {
        const current = item;
        let bytes = 0;
        try {
          await this.db.runExclusive(async () => {
            await this.authorizeFor(current.handlerId);
            await this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            });
            if (this.restarting) bytes += this.lose(current);
          });
          if (this.restarting) {
            await this.restart();
            current.resolve(bytes);
            continue;
          }
        } catch (error) {
          this.owner = null;
          current.reject(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        this.owner =
          endsExchange(current.message) && !this.db.isInTransaction() ? null : current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  /** Set when PGlite dropped a statement: the database restarts before anything else runs. */
  private restarting = false;

  /** Told by the engine's watch (watchForDrops) that the statement running now was dropped. */
  noteDroppedStatement(): void {
    this.restarting = true;
  }

  /** PGlite dropped `item`'s statement: the client gets Postgres' error for it. */
  private lose(item: Item): number {
    this.log(`PGlite dropped a statement (${LOST_MESSAGE}): restarting the database.`);
    const error = errorResponse('54001', LOST_MESSAGE);
    item.onData(error);
    return error.length;
  }

  /**
   * The engine's state cannot be trusted after a dropped statement: the same data directory is
   * opened again (Postgres recovers from its write-ahead log, as after a crash; the broken engine
   * is let go without a checkpoint) and every connection is closed, as a server restart does.
   * Whatever was waiting is dropped with its connection.
   */
  private async restart(): Promise<void> {
    this.owner = null;
    this.users.clear();
    this.authorization = SUPERUSER;
    for (const item of this.queue.splice(0)) item.reject(new Error('The database restarted'));
    this.db = await this.restartDatabase();
    this.restarting = false;
  }
}

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
