/**
 * pg_net's background worker, for the stand-in of supabase/local/postgres/extensions.sql: takes what
 * `net.http_post` / `net.http_get` queued (visible once their transaction committed, as with
 * pg_net), sends it without waiting for earlier answers (a slow function holds up no other
 * request), and keeps the answer in `net._http_response` for six hours (pg_net's TTL).
 */
import type { Db } from '../context.ts';

type Queued = {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
  timeout_milliseconds: number;
};

export type NetWorker = {
  stop(): Promise<void>;
};

const BATCH = 50;
const MAX_IN_FLIGHT = 200;
const RESPONSE_TTL = '6 hours';

export function startNetWorker(db: Db, log: (message: string) => void, pollMs = 100): NetWorker {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let lastError = '';
  let lastPrune = 0;

  async function send(request: Queued): Promise<unknown[]> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeout_milliseconds);
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' || !request.body ? undefined : new Uint8Array(request.body),
        signal: controller.signal,
      });
      const content = await res.text();
      return [
        request.id,
        res.status,
        res.headers.get('content-type'),
        JSON.stringify(Object.fromEntries(res.headers)),
        content,
        false,
        null,
      ];
    } catch (error) {
      const timedOut = controller.signal.aborted;
      const message = timedOut
        ? `Timeout of ${request.timeout_milliseconds} ms reached`
        : ((error as Error).cause as Error | undefined)?.message || (error as Error).message;
      log(`net: ${request.method} ${request.url}: ${message}`);
      return [request.id, null, null, null, null, timedOut, message];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers not yet recorded: pg_net does not wait for one request to take the next. */
  const inFlight = new Set<Promise<void>>();

  async function record(answer: unknown[]): Promise<void> {
    try {
      await db.query(
        `insert into net._http_response
           (id, status_code, content_type, headers, content, timed_out, error_msg)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        answer,
      );
    } catch (error) {
      log(`net: ${(error as Error).message}`);
    }
  }

  async function tick(): Promise<void> {
    const exists = await db.query<{ present: boolean }>(
      "select to_regclass('net.http_request_queue') is not null as present",
    );
    if (!exists.rows[0]?.present) return;
    const room = Math.min(BATCH, MAX_IN_FLIGHT - inFlight.size);
    if (room <= 0) return;
    const { rows } = await db.query<Queued>(
      `delete from net.http_request_queue
        where id in (select id from net.http_request_queue order by id limit ${room}
                     for update skip locked)
       returning id::text, method, url, headers, body, timeout_milliseconds`,
    );
    for (const row of rows) {
      const done: Promise<void> = send(row)
        .then(record)
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    }
    if (Date.now() - lastPrune > 60_000) {
      lastPrune = Date.now();
      await db.query(
        `delete from net._http_response where created < now() - interval '${RESPONSE_TTL}'`,
      );
    }
  }

  function run(): Promise<void> {
    running = running
      .then(tick)
      .then(() => {
        lastError = '';
      })
      .catch((error: Error) => {
        if (error.message !== lastError) log(`net: ${error.message}`);
        lastError = error.message;
      });
    return running;
  }

  let timer: NodeJS.Timeout | null = null;
  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      void run().then(schedule);
    }, pollMs);
    timer.unref();
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await Promise.all([...inFlight]);
    },
  };
}
