/**
 * The one PGlite session handed to one connection at a time (see pglite-server.ts for why).
 */
import type { PGlite } from '@electric-sql/pglite';

import {
  endsExchange,
  ROLLBACK_MESSAGE,
  SUPERUSER,
  startupUser,
  startupAsSuperuser,
  setAuthorization,
  hasError,
  SYNC_MESSAGE,
  errorResponse,
} from './wire.ts';

type Item = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
};

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
