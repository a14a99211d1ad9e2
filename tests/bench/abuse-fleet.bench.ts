/**
 * Who may hold the fleet (docs/decisions.md): one attacker behind an airport's address, with a
 * catch-all mail domain and invented phone numbers, books 90-day rentals across the whole year and
 * confirms every one with the code its catch-all mailbox receives — while a hall of 300 honest
 * travellers behind the very same address books short trips and confirms them the same way.
 * Prints the share of the fleet's car-days the attacker holds at the end (goal ≤ 5 %), the cars it
 * holds at once over the next week, and how many travellers got their booking (goal: all).
 *
 * The SQL rules are what is measured: the stack's gateway limit on anonymous writes (10 a second
 * per address, local only) is lifted as in the API tests. A fresh stack, PGlite by default,
 * PostgreSQL with KIRAA_TEST_DB=postgres.
 *
 * `npm run bench -- abuse` (with the other abuse benchmark), or `npx tsx tests/bench/abuse-fleet.bench.ts`.
 */
import { randomInt, randomUUID } from 'node:crypto';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';

import { SEED } from '../support/seed.ts';
import { fetchMails } from '../support/supabase.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { isMain, printTable } from './support.ts';

const HALL = Number(process.env.KIRAA_HALL ?? 300);
const ATTACK_MS = Number(process.env.KIRAA_ATTACK_MS ?? 30_000);
const CONCURRENCY = 10;
const AIRPORT = '198.51.100.77';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

class NoRealtime {
  constructor() {
    throw new Error('no realtime');
  }
}

function client(stack: TestStack): SupabaseClient {
  return createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': AIRPORT } },
    realtime: { transport: NoRealtime as never },
  });
}

function algiersAt(days: number, hour = 10): string {
  const now = new Date(Date.now() + 3_600_000);
  const d = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour),
  );
  return `${d.toISOString().slice(0, 16)}:00+01:00`;
}

function reference(): string {
  const s = Array.from({ length: 8 }, () => CROCKFORD[randomInt(32)]).join('');
  return `KR-${s.slice(0, 4)}-${s.slice(4)}`;
}

type Attempt = { ok: boolean; code: string };

/**
 * One traveller's booking as the app makes it: the licence, `create_booking`, then the code from
 * the mailbox typed into `confirm_guest_booking`. A car taken meanwhile (refused at once or at
 * confirmation) is another car, as a person picks the next free one, down the whole fleet in a
 * random order (eight random picks once gave up while cars were still free); limits end the
 * attempt.
 */
async function bookAndConfirm(
  stack: TestStack,
  cars: string[],
  place: string,
  email: string,
  startDay: number,
  days: number,
): Promise<Attempt> {
  const api = client(stack);
  const order = [...cars];
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const car of order) {
    const id = randomUUID();
    const path = `${id}/permis.png`;
    const upload = await api.storage
      .from('licenses')
      .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
    if (upload.error) return { ok: false, code: `upload: ${upload.error.message}` };
    const ref = reference();
    const { error } = await api.rpc('create_booking', {
      p: {
        id,
        reference: ref,
        car_id: car,
        start_at: algiersAt(startDay),
        end_at: algiersAt(startDay + days),
        pickup_location_id: place,
        dropoff_location_id: place,
        driver_option: 'self',
        license_path: path,
        from_abroad: false,
        extras: [],
        insurance: ['civil_liability'],
        guest_name: 'Voyageur',
        guest_phone: `+2135${String(randomInt(10_000_000, 99_999_999))}`,
        guest_email: email,
      },
    });
    if (error?.message === 'car_unavailable') continue;
    if (error) return { ok: false, code: error.message };
    const code = await codeFor(stack, email, ref);
    if (!code) return { ok: false, code: 'no_code_mail' };
    const answer = await api.rpc('confirm_guest_booking', { reference: ref, code });
    const data = answer.data as { confirmed: boolean; reason?: string } | null;
    if (data?.confirmed) return { ok: true, code: 'confirmed' };
    if (data?.reason === 'car_unavailable') continue;
    return { ok: false, code: answer.error?.message ?? data?.reason ?? 'unknown' };
  }
  return { ok: false, code: 'no_free_car' };
}

async function codeFor(stack: TestStack, to: string, ref: string): Promise<string | null> {
  // A minute: on a loaded machine the mail worker lags; a missing mail then is a lost one.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const mail = (await fetchMails(stack.mailboxUrl, to)).find((m) => m.subject.includes(ref));
    const code = mail && /Code de confirmation : (\d{8})/.exec(mail.text)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

/** Runs `jobs` with at most `limit` at once. */
async function pool<T>(limit: number, jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        results.push(await job());
      }
    }),
  );
  return results;
}

function tally(attempts: Attempt[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of attempts) counts[a.code] = (counts[a.code] ?? 0) + 1;
  return counts;
}

export default async function fleetBench(): Promise<{ summary: string[] }> {
  const stack = await startTestStack({ verbose: false });
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const cars = (
      await db.query<{ id: string }>('select id from public.cars where active')
    ).rows.map((r) => r.id);
    // Algiers airport: open every day at the bench's 10:00 (docs/opening-hours.md).
    const place = SEED.locations.alg;
    const catchAll = `catchall-${randomUUID().slice(0, 6)}.example`;

    // The attacker: 90-day rentals anywhere in the year, invented mailboxes on its own domain,
    // every code typed, as fast as the server answers, for ATTACK_MS.
    const attack: Attempt[] = [];
    const attackEnds = Date.now() + ATTACK_MS;
    const attacker = Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < attackEnds) {
          const mailbox = `r${randomUUID().slice(0, 8)}@${catchAll}`;
          attack.push(await bookAndConfirm(stack, cars, place, mailbox, 1 + randomInt(270), 90));
        }
      }),
    );
    // The hall: 300 travellers with their own mailboxes, trips of 1 to 5 days in the next 60.
    const started = Date.now();
    const hall = pool(
      CONCURRENCY,
      Array.from(
        { length: HALL },
        (_, i) => () =>
          bookAndConfirm(
            stack,
            cars,
            place,
            `traveller.${i}.${randomUUID().slice(0, 6)}@gmail.com`,
            1 + randomInt(60),
            1 + randomInt(5),
          ),
      ),
    );
    const [hallResults] = await Promise.all([hall, attacker]);
    const hallSeconds = (Date.now() - started) / 1000;

    const [share] = (
      await db.query<{ held: string; capacity: string; at_once: string }>(
        `with mine as (
           select b.* from public.bookings b
             join internal.booking_sources s on s.booking_id = b.id
            where s.domain = $1 and b.status = 'pending' and b.contact_confirmed_at is not null)
         select coalesce(sum(internal.days_within(start_at, end_at, 365)), 0)::text as held,
                ((select count(*) from public.cars where active) * 365)::text as capacity,
                (select count(distinct car_id) from mine
                  where period && tstzrange(now(), now() + interval '7 days'))::text as at_once
           from mine`,
        [catchAll],
      )
    ).rows;
    const held = Number(share!.held);
    const capacity = Number(share!.capacity);
    const percent = (100 * held) / capacity;
    const confirmedHall = hallResults.filter((r) => r.ok).length;

    console.info(`\nOne source with a catch-all domain against the fleet (${stack.engine}):`);
    printTable([
      {
        who: 'attacker (catch-all domain, one address)',
        attempts: attack.length,
        'bookings held': attack.filter((a) => a.ok).length,
        'share of car-days': `${percent.toFixed(2)} % (goal ≤ 5 %)`,
        'cars held in the next 7 days': `${share!.at_once} of ${cars.length}`,
      },
      {
        who: `airport hall, same address (${HALL} travellers)`,
        attempts: hallResults.length,
        'bookings held': confirmedHall,
        'share of car-days': '-',
        'cars held in the next 7 days': `(all succeeded: goal ${HALL} of ${HALL}) in ${hallSeconds.toFixed(0)} s`,
      },
    ]);
    console.info(`attacker refusals: ${JSON.stringify(tally(attack.filter((a) => !a.ok)))}`);
    console.info(`hall refusals: ${JSON.stringify(tally(hallResults.filter((r) => !r.ok)))}`);
    return {
      summary: [
        `catch-all attacker: ${percent.toFixed(2)} % of the fleet's car-days (goal ≤ 5 %), ${share!.at_once} cars in the next 7 days`,
        `airport hall behind the same address: ${confirmedHall} of ${HALL} travellers booked and confirmed (goal: all)`,
      ],
    };
  } finally {
    await db.end().catch(() => {});
    await stack.stop();
  }
}

if (isMain(import.meta.url)) {
  const { summary } = await fleetBench();
  console.info(`\n${summary.join('\n')}`);
  process.exit(0);
}
