/**
 * The load generator of tests/bench/scale.bench.ts, in a process of its own (it must not share
 * the gateway's event loop): `node --import tsx tests/bench/scale-load.ts <job.json>` prints one
 * JSON line of results. Kept-alive HTTP/1.1 connections, as a browser keeps them, on raw sockets:
 * `node:http` cost the generator ≈ 0.26 ms of CPU a request, taken from the two cores the stack
 * is measured on; a request written whole and an answer read by its length cost a fraction.
 *
 * Modes: `closed` (N clients, each sends its next request when the last one answered: throughput
 * and latency at saturation), `open` (a request every 1/rate seconds whatever the answers: latency
 * at a fixed offered rate, no coordinated omission), `once` (N requests released together: the
 * race).
 *
 * Every request is built from its sequence number `n` (`requestFor`): a booking `n` always has the
 * same id, reference, car, dates, contact and client address, so the bench can prepare its licence
 * files before and look its bookings up after.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

import { isMain } from './support.ts';

export type Target = {
  /** The gateway (`…/rest/v1`) or PostgREST itself (no prefix). */
  restUrl: string;
  anonKey: string;
};

export type Work =
  | { kind: 'noop'; method: 'GET' | 'POST' }
  | {
      kind: 'create';
      cars: string[];
      location: string;
      /** A booking of this customer (`tokens[n % tokens.length]`), else a guest's. */
      tokens?: string[];
      /** Everyone asks for this car and slot (the race). */
      sameSlot?: boolean;
    }
  /** Looks up booking `known[n % known.length]` (a guest booking the bench made), from address n. */
  | { kind: 'find'; known: number[] }
  | { kind: 'delta'; query: string };

export type Job = {
  target: Target;
  work: Work;
  mode: 'closed' | 'open' | 'once';
  /** First sequence number (each phase takes numbers of its own). */
  first: number;
  concurrency?: number;
  rate?: number;
  warmupMs?: number;
  durationMs?: number;
};

export type LoadResult = {
  ok: number;
  failed: number;
  /** Answers with an error status, by status and PostgREST code/message. */
  errors: Record<string, number>;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Every answer, warm-up included (the CPU the stack spent is divided by it). */
  answered: number;
  /** Sequence numbers used: [first, next). */
  next: number;
  /** `once`: sequence numbers whose request succeeded. */
  winners: number[];
};

const DAY = 86_400_000;
/** The first slot starts this many days ahead (past the seed's bookings' cars: the bench's own cars). */
const FIRST_DAY = 3;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The id of booking `n` (a version-4-shaped UUID). */
export function bookingId(n: number): string {
  return `be000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** The reference of booking `n` (KR-XXXX-XXXX, Crockford base 32). */
export function bookingReference(n: number): string {
  let s = '';
  for (let i = 0, v = n; i < 8; i += 1, v = Math.floor(v / 32)) s = CROCKFORD[v % 32]! + s;
  return `KR-${s.slice(0, 4)}-${s.slice(4)}`;
}

export const bookingEmail = (n: number) => `bench-${n}@kiraa.test`;

/** A distinct private client address per sequence number (the gateway trusts X-Forwarded-For). */
export function clientAddress(n: number): string {
  const v = n + 1;
  return `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`;
}

/** The 2-day slot of booking `n` on its car (back to back: `[)` periods never overlap). */
export function bookingSlot(n: number, cars: number, sameSlot = false) {
  const slot = sameSlot ? 0 : Math.floor(n / cars);
  const start =
    Date.UTC(2000, 0, 1, 9) + Math.ceil((Date.now() - Date.UTC(2000, 0, 1)) / DAY) * DAY;
  const startAt = new Date(start + (FIRST_DAY + 2 * slot) * DAY);
  return {
    start_at: startAt.toISOString(),
    end_at: new Date(startAt.getTime() + 2 * DAY).toISOString(),
  };
}

type Built = { method: string; path: string; body?: string; headers: Record<string, string> };

export function requestFor(job: Job, n: number): Built {
  const { target, work } = job;
  const address = clientAddress(n);
  const headers: Record<string, string> = {
    apikey: target.anonKey,
    authorization: `Bearer ${target.anonKey}`,
    'x-forwarded-for': address,
    // What the gateway hands PostgREST; set here too for calls that skip it.
    'cf-connecting-ip': address,
  };
  if (work.kind === 'noop') {
    return work.method === 'GET'
      ? { method: 'GET', path: '/rpc/bench_noop', headers }
      : { method: 'POST', path: '/rpc/bench_noop', body: '{}', headers };
  }
  if (work.kind === 'delta') return { method: 'GET', path: `/cars?${work.query}`, headers };
  if (work.kind === 'find') {
    const m = work.known[n % work.known.length]!;
    return {
      method: 'POST',
      path: '/rpc/find_guest_booking',
      body: JSON.stringify({ reference: bookingReference(m), contact: bookingEmail(m) }),
      headers,
    };
  }
  const token = work.tokens?.[n % work.tokens.length];
  if (token) headers.authorization = `Bearer ${token}`;
  const p = bookingPayload(work, n);
  return { method: 'POST', path: '/rpc/create_booking', body: JSON.stringify({ p }), headers };
}

/** The `p` argument of booking `n`'s create_booking: a customer's with a token, else a guest's. */
export function bookingPayload(work: Extract<Work, { kind: 'create' }>, n: number) {
  const customer = !!work.tokens?.length;
  const id = bookingId(n);
  return {
    id,
    reference: bookingReference(n),
    car_id: work.cars[n % work.cars.length],
    ...bookingSlot(n, work.cars.length, work.sameSlot),
    pickup_location_id: work.location,
    dropoff_location_id: work.location,
    driver_option: 'self',
    license_path: `${id}/licence.pdf`,
    flight_document_path: null,
    from_abroad: false,
    additional_requests: null,
    extras: [],
    insurance: ['civil_liability'],
    payment_method: 'cash',
    ...(customer
      ? {}
      : {
          guest_name: `Bench Guest ${n}`,
          guest_phone: `+2135${String(10_000_000 + (n % 89_999_999))}`,
          guest_email: bookingEmail(n),
        }),
    locale: 'fr',
  };
}

export type Answer = { status: number; body: Buffer; close: boolean };

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/**
 * One HTTP/1.1 answer from the start of `data` (by Content-Length, or chunked), with the bytes it
 * took; null while it is incomplete. Enough for what the gateway and PostgREST send.
 */
export function parseAnswer(data: Buffer): { answer: Answer; used: number } | null {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = data.subarray(0, headerEnd).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
  if (!status) throw new Error(`not an HTTP answer: ${head.slice(0, 40)}`);
  const header = (name: string) =>
    new RegExp(`\r\n${name}:[ \t]*([^\r]*)`, 'i').exec(head)?.[1]?.trim().toLowerCase();
  const close = header('connection') === 'close';
  let at = headerEnd + HEADER_END.length;
  if (header('transfer-encoding')?.includes('chunked')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf(CRLF, at);
      if (lineEnd < 0) return null;
      const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      const next = lineEnd + CRLF.length + size + CRLF.length;
      if (data.length < next) return null;
      if (size === 0) return { answer: { status, body: Buffer.concat(parts), close }, used: next };
      parts.push(data.subarray(lineEnd + CRLF.length, lineEnd + CRLF.length + size));
      at = next;
    }
  }
  const length = Number(header('content-length') ?? (status === 204 || status === 304 ? 0 : NaN));
  if (Number.isNaN(length)) throw new Error('an answer without a length');
  if (data.length < at + length) return null;
  return { answer: { status, body: data.subarray(at, at + length), close }, used: at + length };
}

/** A kept-alive connection: one request at a time, each written in one piece. */
class Connection {
  private readonly socket: Socket;
  private data: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;
  readonly ready: Promise<void>;
  dead = false;

  constructor(url: URL) {
    this.socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => {
      this.data = this.data.length ? Buffer.concat([this.data, chunk]) : chunk;
      let parsed: ReturnType<typeof parseAnswer>;
      try {
        parsed = parseAnswer(this.data);
      } catch (error) {
        return this.fail(error as Error);
      }
      if (!parsed) return;
      this.data = this.data.subarray(parsed.used);
      const waiting = this.waiting;
      this.waiting = null;
      if (parsed.answer.close) this.end();
      waiting?.resolve(parsed.answer);
    });
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('socket hang up')));
  }

  send(raw: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(raw);
    });
  }

  end(): void {
    this.dead = true;
    this.socket.destroy();
  }

  private fail(error: Error): void {
    this.dead = true;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }
}

/** Connections to one server: an idle one is reused, else one more is opened. */
class Pool {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();

  constructor(private readonly url: URL) {}

  /** Opens `count` connections ahead (the race's requests then leave together). */
  async open(count: number): Promise<void> {
    const opened = Array.from({ length: count }, () => this.add());
    await Promise.all(opened.map((c) => c.ready));
    this.idle.push(...opened);
  }

  async send(raw: string): Promise<Answer> {
    let connection = this.idle.pop();
    while (connection?.dead) connection = this.idle.pop();
    if (!connection) {
      connection = this.add();
      await connection.ready;
    }
    const answer = await connection.send(raw);
    if (!connection.dead) this.idle.push(connection);
    return answer;
  }

  destroy(): void {
    for (const connection of this.all) connection.end();
  }

  private add(): Connection {
    const connection = new Connection(this.url);
    connection.ready.catch(() => {});
    this.all.add(connection);
    return connection;
  }
}

/** The request's bytes: request line, headers and body, written in one piece. */
function rawRequest(url: URL, built: Built): string {
  const lines = [
    `${built.method} ${url.pathname.replace(/\/$/, '')}${built.path} HTTP/1.1`,
    `host: ${url.host}`,
  ];
  for (const [name, value] of Object.entries(built.headers)) lines.push(`${name}: ${value}`);
  if (built.body !== undefined) {
    lines.push('content-type: application/json');
    lines.push(`content-length: ${Buffer.byteLength(built.body)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${built.body ?? ''}`;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export async function runJob(job: Job): Promise<LoadResult> {
  const url = new URL(job.target.restUrl);
  const pool = new Pool(url);
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const winners: number[] = [];
  let failed = 0;
  let answered = 0;
  let measuring = job.mode !== 'closed' || !job.warmupMs;
  let next = job.first;

  const send = async (n: number): Promise<void> => {
    const raw = rawRequest(url, requestFor(job, n));
    const counted = measuring;
    const t0 = process.hrtime.bigint();
    let answer: Answer;
    try {
      answer = await pool.send(raw);
    } catch (error) {
      if (counted) {
        failed += 1;
        const message = (error as Error).message;
        errors[message] = (errors[message] ?? 0) + 1;
      }
      return;
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    answered += 1;
    if (answer.status < 400) {
      if (counted) {
        latencies.push(ms);
        winners.push(n);
      }
      return;
    }
    if (counted) failed += 1;
    // Refusals during the warm-up are reported too (a prefix tells them apart).
    let code = '';
    try {
      const body = JSON.parse(answer.body.toString()) as { code?: string; message?: string };
      code = `${body.code ?? ''} ${body.message ?? ''}`.slice(0, 60);
    } catch {
      // not JSON
    }
    const key = `${counted ? '' : 'warm-up: '}${answer.status} ${code}`.trim();
    errors[key] = (errors[key] ?? 0) + 1;
  };

  let elapsed = 0;
  if (job.mode === 'once') {
    const count = job.concurrency ?? 1;
    // Open the connections first, so the requests leave together.
    await pool.open(count);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: count }, (_, i) => send(job.first + i)));
    elapsed = (Date.now() - t0) / 1000;
    next = job.first + count;
  } else if (job.mode === 'closed') {
    let stop = false;
    const clients = job.concurrency ?? 1;
    let rounds = 0;
    // Client i sends numbers first + i + k·clients: with as many cars as clients, its own car.
    const worker = async (i: number) => {
      for (let k = 0; !stop; k += 1) {
        await send(job.first + i + k * clients);
        rounds = Math.max(rounds, k + 1);
      }
    };
    const workers = Array.from({ length: clients }, (_, i) => worker(i));
    await new Promise((r) => setTimeout(r, job.warmupMs ?? 0));
    measuring = true;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, job.durationMs ?? 5000));
    measuring = false;
    elapsed = (Date.now() - t0) / 1000;
    stop = true;
    await Promise.all(workers);
    next = job.first + rounds * clients;
  } else {
    const rate = job.rate ?? 100;
    const total = Math.round((rate * (job.durationMs ?? 5000)) / 1000);
    const pending: Promise<void>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < total; i += 1) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(send(next++));
    }
    elapsed = (performance.now() - t0) / 1000;
    await Promise.all(pending);
  }
  pool.destroy();
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    failed,
    answered,
    errors,
    rps: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    next,
    winners: job.mode === 'once' ? winners : [],
  };
}

if (isMain(import.meta.url)) {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
  console.log(JSON.stringify(await runJob(job)));
  process.exit(0);
}
