/**
 * Public booking under abuse (docs/decisions.md, "Who may hold the fleet"): 200 hostile clients hammer anonymous
 * writes (a licence upload and `create_booking` with invented contacts, on random cars and days,
 * as fast as the server answers) while a normal customer browses (the catalogue, busy periods, a
 * quote) and books (upload, `create_booking`, then cancels). Three phases of PHASE_MS each, on a
 * fresh local stack (PGlite, or PostgreSQL with KIRAA_TEST_DB=postgres):
 * - quiet: the customer alone;
 * - one machine: the 200 clients behind one address, each forging the first X-Forwarded-For entry
 *   (the stack trusts the header's rightmost entry, as hosted Supabase's proxies append it);
 * - botnet: the 200 clients from 200 addresses.
 * Prints the customer's p95 per phase, how many hostile bookings got through (unconfirmed: they
 * hold no car, and expire at their deadline), how many cars are busy for other travellers after
 * the phase, and why the others were refused. abuse-fleet.bench.ts measures what a source that
 * does confirm (a catch-all mail domain) can hold. The hostile
 * clients and the customer run in processes of their own, so they never share the stack's event
 * loop.
 *
 * `npx tsx tests/bench/abuse.bench.ts`, or `npm run bench -- abuse`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createClient } from '@supabase/supabase-js';
import pg from 'pg';

import { SEED } from '../support/seed.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { isMain, printTable } from './support.ts';

const HOSTILE_CLIENTS = 200;
const PHASE_MS = Number(process.env.KIRAA_ABUSE_PHASE_MS ?? 20_000);

/** A 1×1 PNG, base64 (the storage server checks the bytes). */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Shared by both scripts: one upload + create_booking, and the timing helpers. */
const COMMON = `
import { randomInt, randomUUID } from 'node:crypto';
const png = Buffer.from('${PNG}', 'base64');
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function reference() {
  const s = Array.from({ length: 8 }, () => crockford[randomInt(32)]).join('');
  return 'KR-' + s.slice(0, 4) + '-' + s.slice(4);
}
export function algiers(days, hour) {
  const now = new Date(Date.now() + 3600000);
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour));
  return d.toISOString().slice(0, 16) + ':00+01:00';
}
export async function call(api, path, { key, token, address, method = 'POST', body, type }) {
  const headers = { apikey: key, authorization: 'Bearer ' + (token ?? key), 'x-forwarded-for': address };
  if (type) headers['content-type'] = type;
  const res = await fetch(api + path, { method, headers, body });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch {}
  return { status: res.status, json };
}
export async function book(api, { key, token, address, car, place, day, contact }) {
  const id = randomUUID();
  const path = id + '/permis.png';
  const up = await call(api, '/storage/v1/object/licenses/' + path, { key, token, address, body: png, type: 'image/png' });
  if (up.status >= 300) return { ok: false, code: 'upload_' + up.status, id };
  const p = {
    id, reference: reference(), car_id: car, start_at: algiers(day, 10), end_at: algiers(day + 2, 10),
    pickup_location_id: place, dropoff_location_id: place, driver_option: 'self', license_path: path,
    from_abroad: false, extras: [], insurance: ['civil_liability'], ...(contact ?? {}),
  };
  const res = await call(api, '/rest/v1/rpc/create_booking', { key, token, address, body: JSON.stringify({ p }), type: 'application/json' });
  if (res.status === 200) return { ok: true, id };
  return { ok: false, code: res.json?.message ?? 'http_' + res.status, id };
}
`;

/** 200 hostile loops: argv = api, key, mode (one|many), durationMs, cars (comma), place. */
const HOSTILE = `
import { randomInt, randomUUID } from 'node:crypto';
import { book } from './common.mjs';
const [api, key, mode, durationMs, carList, place] = process.argv.slice(2);
const cars = carList.split(',');
const deadline = Date.now() + Number(durationMs);
const octet = () => randomInt(1, 255);
const codes = {};
let requests = 0;
let created = 0;
async function client(n) {
  const own = '10.' + (n >> 8) + '.' + (n & 255) + '.7';
  while (Date.now() < deadline) {
    const forged = octet() + '.' + octet() + '.' + octet() + '.' + octet();
    const address = mode === 'one' ? forged + ', 198.51.100.7' : own;
    const tag = randomUUID().slice(0, 8);
    const r = await book(api, {
      key, address, car: cars[randomInt(cars.length)], place, day: randomInt(2, 360),
      contact: { guest_name: 'Bot ' + tag, guest_phone: '+2135' + String(randomInt(10000000, 99999999)), guest_email: 'bot-' + tag + '@example.com' },
    });
    requests += 2;
    if (r.ok) created += 1; else codes[r.code] = (codes[r.code] ?? 0) + 1;
  }
}
const t0 = Date.now();
await Promise.all(Array.from({ length: ${HOSTILE_CLIENTS} }, (_, i) => client(i)));
console.log(JSON.stringify({ created, requests, seconds: (Date.now() - t0) / 1000, codes }));
`;

/**
 * The customer: argv = api, key, token, durationMs, cars (comma), place. Browses in a loop
 * (catalogue, busy periods, a quote) and books every 2 s (then cancels, so the account's limits
 * are never in the way).
 */
const CUSTOMER = `
import { randomInt } from 'node:crypto';
import { algiers, book, call } from './common.mjs';
const [api, key, token, durationMs, carList, place] = process.argv.slice(2);
const cars = carList.split(',');
const address = '10.200.0.1';
const deadline = Date.now() + Number(durationMs);
const reads = [];
const books = [];
let booked = 0;
let taken = 0;
const errors = {};
async function timed(list, fn) {
  const t0 = performance.now();
  const r = await fn();
  list.push(performance.now() - t0);
  return r;
}
async function browse() {
  while (Date.now() < deadline) {
    const cat = await timed(reads, () => call(api, '/rest/v1/cars?select=id,slug,name,daily_rate_dzd&active=eq.true&limit=50', { key, address, method: 'GET' }));
    if (cat.status !== 200) errors['cars_' + cat.status] = (errors['cars_' + cat.status] ?? 0) + 1;
    const from = encodeURIComponent(algiers(0, 0));
    const to = encodeURIComponent(algiers(365, 0));
    const busy = await timed(reads, () => call(api, '/rest/v1/rpc/car_busy_periods?from=' + from + '&to=' + to, { key, address, method: 'GET' }));
    if (busy.status !== 200) errors['busy_' + busy.status] = (errors['busy_' + busy.status] ?? 0) + 1;
    const quote = await timed(reads, () => call(api, '/rest/v1/rpc/quote_booking', { key, token, address, type: 'application/json',
      body: JSON.stringify({ p: { car_id: cars[randomInt(cars.length)], start_at: algiers(20, 10), end_at: algiers(22, 10) } }) }));
    if (quote.status !== 200) errors['quote_' + quote.status] = (errors['quote_' + quote.status] ?? 0) + 1;
  }
}
async function booking() {
  while (Date.now() < deadline) {
    const started = Date.now();
    const r = await timed(books, () => book(api, { key, token, address, car: cars[randomInt(cars.length)], place, day: randomInt(2, 360) }));
    if (r.ok) {
      booked += 1;
      await call(api, '/rest/v1/rpc/cancel_booking', { key, token, address, type: 'application/json', body: JSON.stringify({ booking_id: r.id }) });
    } else if (r.code === 'car_unavailable') taken += 1;
    else errors[r.code] = (errors[r.code] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2000 - (Date.now() - started))));
  }
}
await Promise.all([browse(), booking()]);
const q = (list, p) => { const s = [...list].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? NaN; };
console.log(JSON.stringify({ reads: reads.length, readP50: q(reads, 0.5), readP95: q(reads, 0.95),
  books: books.length, bookP50: q(books, 0.5), bookP95: q(books, 0.95), booked, taken, errors }));
`;

type Hostile = {
  created: number;
  requests: number;
  seconds: number;
  codes: Record<string, number>;
};
type Customer = {
  reads: number;
  readP50: number;
  readP95: number;
  books: number;
  bookP50: number;
  bookP95: number;
  booked: number;
  taken: number;
  errors: Record<string, number>;
};

function runScript<T>(dir: string, file: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, file), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${file} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as T);
    });
  });
}

/** Node 20 has no WebSocket and the local stack no Realtime: a transport that never connects. */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

/** A fresh customer (signed up through the auth API) and their access token. */
async function customerToken(stack: TestStack): Promise<string> {
  const client = createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': `10.201.${Math.floor(Math.random() * 250)}.1` } },
    realtime: { transport: NoRealtime as never },
  });
  const email = `bench-${Date.now()}-${Math.floor(Math.random() * 1e6)}@kiraa.test`;
  const { data, error } = await client.auth.signUp({
    email,
    password: 'Bench-pass1!',
    options: { data: { name: 'Lina Bench', phone: '+213555000111', age: 30, address: 'Alger' } },
  });
  if (error || !data.session) throw new Error(`sign-up failed: ${error?.message}`);
  return data.session.access_token;
}

export default async function abuseBench(): Promise<{ summary: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'kiraa-abuse-bench-'));
  writeFileSync(join(dir, 'common.mjs'), COMMON);
  writeFileSync(join(dir, 'hostile.mjs'), HOSTILE);
  writeFileSync(join(dir, 'customer.mjs'), CUSTOMER);
  const stack = await startTestStack({ trustProxyHeaders: true });
  const db = new pg.Client({ connectionString: stack.dbUrl });
  try {
    await db.connect();
    const cars = (
      await db.query<{ id: string }>('select id from public.cars where active order by id')
    ).rows.map((r) => r.id);
    // Algiers airport: open every day (a city place is closed on Friday, docs/opening-hours.md).
    const place = SEED.locations.alg;
    const carList = cars.join(',');
    // Cars the hostile bookings make busy for everyone else (car_busy_periods' rule).
    const holds = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `select count(*) as n from public.bookings b
              where b.user_id is null
                and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)`,
          )
        ).rows[0]!.n,
      );

    const phases: Array<{
      phase: string;
      customer: Customer;
      hostile: Hostile | null;
      holdsAfter: number;
    }> = [];
    for (const phase of ['quiet', 'one machine', 'botnet'] as const) {
      const token = await customerToken(stack);
      const customer = runScript<Customer>(dir, 'customer.mjs', [
        stack.apiUrl,
        stack.anonKey,
        token,
        String(PHASE_MS),
        carList,
        place,
      ]);
      const hostile =
        phase === 'quiet'
          ? Promise.resolve(null)
          : runScript<Hostile>(dir, 'hostile.mjs', [
              stack.apiUrl,
              stack.anonKey,
              phase === 'one machine' ? 'one' : 'many',
              String(PHASE_MS),
              carList,
              place,
            ]);
      const [c, h] = await Promise.all([customer, hostile]);
      phases.push({ phase, customer: c, hostile: h, holdsAfter: await holds() });
      console.info(`phase ${phase}: ${JSON.stringify({ customer: c, hostile: h })}`);
    }

    const engine = stack.engine;
    console.info(
      `\nCustomer under ${HOSTILE_CLIENTS} hostile clients (${engine}, ${PHASE_MS / 1000} s per phase):`,
    );
    printTable(
      phases.map(({ phase, customer: c, hostile: h, holdsAfter }) => ({
        phase,
        'reads p50/p95 ms': `${c.readP50.toFixed(0)} / ${c.readP95.toFixed(0)}`,
        'book p50/p95 ms': `${c.bookP50.toFixed(0)} / ${c.bookP95.toFixed(0)}`,
        'customer booked': `${c.booked}/${c.books}`,
        'hostile req/s': h ? (h.requests / h.seconds).toFixed(0) : '-',
        'hostile bookings through': h ? h.created : '-',
        'guest bookings holding a car after': holdsAfter,
      })),
    );
    for (const { phase, hostile: h, customer: c } of phases) {
      if (h) console.info(`${phase}: hostile refusals ${JSON.stringify(h.codes)}`);
      if (Object.keys(c.errors).length)
        console.info(`${phase}: customer errors ${JSON.stringify(c.errors)}`);
    }
    return {
      summary: phases.map(
        ({ phase, customer: c, hostile: h }) =>
          `${phase}: customer reads p95 ${c.readP95.toFixed(0)} ms, booking p95 ${c.bookP95.toFixed(0)} ms` +
          (h ? `; ${h.created} hostile bookings through of ${h.requests / 2} attempts` : ''),
      ),
    };
  } finally {
    await db.end().catch(() => {});
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { summary } = await abuseBench();
  console.info(`\n${summary.join('\n')}`);
  process.exit(0);
}
