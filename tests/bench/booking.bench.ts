/**
 * Booking benchmarks against the real local stack (and the production build in Chromium):
 * - the time to flush 100 queued guest bookings (100 licence uploads + 100 `create_booking`), with
 *   the app's own outbox code (src/sync/outbox/) over supabase-js, IndexedDB faked in Node;
 * - the duplicates after replaying that whole outbox 3 times, as a device that lost every answer
 *   would (must be 0), and how many replayed entries got parked (must be 0);
 * - the wizard's step-to-step interaction latency in headless Chromium (goal ≤ 100 ms): from the
 *   click on "Next"/"Back" (steps 1 ⇄ 2 ⇄ 3) to the frame after the new step is on screen, measured
 *   in the page; median and p95.
 *
 * `npx tsx tests/bench/booking.bench.ts`, or through `npm run bench` (default export).
 */
import 'fake-indexeddb/auto';

import { randomInt } from 'node:crypto';

import { createClient } from '@supabase/supabase-js';
import { chromium } from 'playwright-core';

import type { LocalBooking } from '../../src/domain/local-booking.ts';
import type { LocalFile, OutboxEntry } from '../../src/infra/db.ts';
import type { E2eEnv } from '../e2e/support/env.ts';
import { SEED } from '../support/seed.ts';
import { chromiumLaunchOptions } from '../e2e/support/browser.ts';
import { isMain, printTable, stats, withBuiltApp, type Stats } from './support.ts';

export const GOALS = { stepLatencyMs: 100 } as const;
const BOOKINGS = 100;
const REPLAYS = 3;
const STEP_ROUNDS = 20;

/** Node 20 has no WebSocket and the local stack no Realtime: a transport that never connects. */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

const randomAddress = () => `10.9.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * A client of the stack. `perRequestAddress`: every request from another address (the e2e stack
 * trusts X-Forwarded-For), as 100 devices flushing their own booking would be; one address
 * would meet the limit of unconfirmed guest holds per address (docs/decisions.md, "Who may hold the fleet").
 */
function client(env: E2eEnv, key: string, perRequestAddress = false) {
  const address = randomAddress();
  return createClient(env.apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      headers: { 'x-forwarded-for': address },
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('x-forwarded-for', perRequestAddress ? randomAddress() : address);
        return fetch(input, { ...init, headers });
      },
    },
    realtime: { transport: NoRealtime as never },
  });
}

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function flushBench(env: E2eEnv) {
  // The app's modules, loaded after fake-indexeddb so Dexie finds an IndexedDB.
  const { db } = await import('../../src/infra/db.ts');
  const { flushOutbox } = await import('../../src/sync/outbox/flush.ts');
  const { queueBooking } = await import('../../src/sync/outbox/enqueue.ts');
  const { supabaseTransport } = await import('../../src/sync/outbox/transport.ts');
  const { generateReference } = await import('../../src/domain/reference.ts');
  await Promise.all(db.tables.map((t) => t.clear()));

  const service = client(env, env.serviceRoleKey);
  const { data: cars } = await service.from('cars').select('id').eq('active', true).order('id');
  if (!cars?.length) throw new Error('the seed has no cars');
  // Algiers airport: open 06:00–23:00 every day, where the rentals below start and end at 10:00
  // Algiers time (docs/opening-hours.md; a city place is closed on Friday).
  const place = SEED.locations.alg;

  // 100 rentals that never overlap: each car takes its turn, three days apart, 100 days out
  // (within the booking horizon, after the seed's upcoming bookings).
  const DAY = 24 * 60 * 60 * 1000;
  const base = Math.floor(Date.now() / DAY) * DAY + 100 * DAY + 9 * 60 * 60 * 1000; // 10:00 in Algiers
  const ids: string[] = [];
  for (let i = 0; i < BOOKINGS; i += 1) {
    const id = crypto.randomUUID();
    ids.push(id);
    const start = new Date(base + Math.floor(i / cars.length) * 3 * 86_400_000);
    const end = new Date(start.getTime() + 2 * 86_400_000);
    const file: LocalFile = {
      id: `${id}-licence`,
      bucket: 'licenses',
      path: `${id}/licence.pdf`,
      name: 'licence.pdf',
      type: 'application/pdf',
      blob: new Blob([PDF], { type: 'application/pdf' }),
    };
    const payload = {
      id,
      reference: generateReference(),
      car_id: String(cars[i % cars.length]!.id),
      start_at: start.toISOString(),
      end_at: end.toISOString(),
      pickup_location_id: place,
      dropoff_location_id: place,
      driver_option: 'self' as const,
      license_path: file.path,
      flight_document_path: null,
      from_abroad: false,
      additional_requests: null,
      extras: [],
      insurance: ['civil_liability'],
      payment_method: 'cash' as const,
      guest_name: `Bench Guest ${i}`,
      // A contact per booking: the server limits pending bookings per email and phone.
      guest_phone: `+2135${String(10_000_000 + i)}`,
      guest_email: `bench-${i}@kiraa.test`,
      locale: 'fr' as const,
    };
    const price = {
      days: 2,
      base: 0,
      extras_total: 0,
      insurance_total: 0,
      driver_total: 0,
      pickup_fee: 0,
      dropoff_fee: 0,
      subtotal: 0,
      deposit: 0,
      total: 0,
      currency: 'DZD' as const,
    };
    const booking: LocalBooking = {
      ...payload,
      user_id: null,
      extras: [],
      insurance: ['civil_liability'],
      payment_status: 'unpaid',
      price,
      total_dzd: 0,
      notes: null,
      status: 'queued',
      status_reason: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      sync_state: 'queued',
      sync_error: null,
      is_guest: true,
    };
    await queueBooking({ booking, files: [file], payload });
  }
  const snapshot: OutboxEntry[] = await db.outbox.toArray();
  const files: LocalFile[] = await db.files.toArray();

  const transport = supabaseTransport(client(env, env.anonKey, true));
  const started = performance.now();
  let result = await flushOutbox({ transport });
  while (result.remaining > 0 && result.stoppedBy && result.stoppedBy.kind !== 'permanent') {
    await new Promise((r) => setTimeout(r, Math.max(0, (result.retryAt ?? 0) - Date.now())));
    result = await flushOutbox({ transport });
  }
  const flushMs = performance.now() - started;
  const landed = (await db.bookings.toArray()).filter((b) => b.sync_state === 'awaiting').length;

  // Replay everything, three times, as if every answer had been lost: the same entries, the
  // files back, the bookings back to "queued" (so even the uploads are sent again).
  const replays: { parked: number; ms: number }[] = [];
  for (let r = 0; r < REPLAYS; r += 1) {
    await db.outbox.bulkPut(snapshot.map((e) => ({ ...e, state: 'pending' as const })));
    await db.files.bulkPut(files);
    await db.bookings.toCollection().modify({ sync_state: 'queued', status: 'queued' });
    const t0 = performance.now();
    const replay = await flushOutbox({ transport });
    replays.push({ parked: replay.parked, ms: performance.now() - t0 });
  }

  const rows: { id: string }[] = [];
  for (let i = 0; i < ids.length; i += 50) {
    const { data, error } = await service
      .from('bookings')
      .select('id')
      .in('id', ids.slice(i, i + 50));
    if (error) throw error;
    rows.push(...(data as { id: string }[]));
  }
  const duplicates = rows.length - new Set(rows.map((row) => row.id)).size;
  const missing = ids.filter((id) => !rows.some((row) => row.id === id)).length;
  return { flushMs, landed, replays, serverRows: rows.length, duplicates, missing };
}

/*
 * Code that runs in the page is a plain JavaScript string: tsx compiles this file with esbuild's
 * keepNames, whose `__name()` helper does not exist in the page.
 */
/**
 * Installed before any page script: on every click on a wizard button, the time from the click
 * to the frame after the step indicator shows another step goes into `window.__stepLatencies`.
 */
const WATCH_STEPS = `
  (() => {
    window.__stepLatencies = [];
    let pending = null;
    const stepText = () =>
      document.querySelector('[data-testid="wizard-step"]')?.textContent ?? '';
    document.addEventListener(
      'click',
      (event) => {
        const button = event.target.closest?.('[data-testid^="wizard-"]');
        if (button) pending = { t0: performance.now(), from: stepText() };
      },
      true,
    );
    new MutationObserver(() => {
      if (!pending || stepText() === pending.from) return;
      const { t0 } = pending;
      pending = null;
      requestAnimationFrame(() => window.__stepLatencies.push(performance.now() - t0));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  })();
`;

async function latencyBench(env: E2eEnv) {
  const service = client(env, env.serviceRoleKey);
  const { data: cars } = await service.from('cars').select('id').eq('active', true).limit(1);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const context = await browser.newContext({
      baseURL: env.appUrl,
      locale: 'fr-FR',
      timezoneId: 'UTC',
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript(WATCH_STEPS);
    const page = await context.newPage();
    await page.goto('/cars');
    await page.getByTestId('car-link').first().waitFor({ timeout: 60_000 });
    const day = (n: number) =>
      new Date(Date.now() + 3_600_000 + n * 86_400_000).toISOString().slice(0, 10);
    await page.goto(
      `/cars/book?car=${String(cars![0]!.id)}&start=${day(30)}T10:00&end=${day(33)}T10:00`,
    );
    await page.getByTestId('wizard-step').waitFor();
    // Warm up once (lazy chunks, first renders), then measure.
    await page.getByTestId('wizard-next').click();
    await page.getByText('Étape 2 sur 5').waitFor();
    await page.getByTestId('wizard-back').click();
    await page.getByText('Étape 1 sur 5').waitFor();
    const latencies = () => page.evaluate('window.__stepLatencies.slice()') as Promise<number[]>;
    /** Clicks a wizard button and returns the latency the page measured for it. */
    const step = async (testId: string, number: number) => {
      const before = (await latencies()).length;
      await page.getByTestId(testId).click();
      await page.getByText(`Étape ${number} sur 5`).waitFor();
      for (let i = 0; i < 100 && (await latencies()).length <= before; i += 1) {
        await page.waitForTimeout(10);
      }
      return (await latencies()).at(-1)!;
    };
    const samples = { next: [] as number[], back: [] as number[] };
    for (let i = 0; i < STEP_ROUNDS; i += 1) {
      samples.next.push(await step('wizard-next', 2));
      samples.next.push(await step('wizard-next', 3));
      samples.back.push(await step('wizard-back', 2));
      samples.back.push(await step('wizard-back', 1));
    }
    return {
      next: stats(samples.next),
      back: stats(samples.back),
      all: stats([...samples.next, ...samples.back]),
    };
  } finally {
    await browser.close();
  }
}

export default async function bookingBench(): Promise<{ summary: string[] }> {
  return withBuiltApp(async (env) => {
    const flush = await flushBench(env);
    console.info(`\nFlush of ${BOOKINGS} queued bookings (upload + create_booking each):`);
    printTable([
      {
        bookings: BOOKINGS,
        'total ms': flush.flushMs.toFixed(0),
        'ms / booking': (flush.flushMs / BOOKINGS).toFixed(1),
        landed: flush.landed,
      },
    ]);
    console.info(`\nReplays of the whole outbox (${REPLAYS}×):`);
    printTable(
      flush.replays.map((r, i) => ({ replay: i + 1, ms: r.ms.toFixed(0), parked: r.parked })),
    );
    console.info(
      `server rows for the ${BOOKINGS} ids: ${flush.serverRows}, duplicates: ${flush.duplicates}, missing: ${flush.missing}`,
    );

    // A refused booking costs less than a stored one: a flush where they did not all land timed
    // refusals (run before 06:00 in Algiers, the opening hours once refused all 100, unnoticed).
    if (flush.serverRows !== BOOKINGS) {
      throw new Error(
        `${flush.serverRows} of ${BOOKINGS} bookings landed: the flush is not measured`,
      );
    }

    const latency = await latencyBench(env);
    const fmt = (s: Stats) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} ms`;
    console.info(`\nWizard step-to-step latency in Chromium (goal ≤ ${GOALS.stepLatencyMs} ms):`);
    printTable([
      { transition: 'next', n: latency.next.n, 'median / p95': fmt(latency.next) },
      { transition: 'back', n: latency.back.n, 'median / p95': fmt(latency.back) },
      { transition: 'all', n: latency.all.n, 'median / p95': fmt(latency.all) },
    ]);

    const parked = flush.replays.reduce((n, r) => n + r.parked, 0);
    return {
      summary: [
        `flush ${BOOKINGS} queued bookings: ${flush.flushMs.toFixed(0)} ms (${(flush.flushMs / BOOKINGS).toFixed(1)} ms each), ${flush.landed} landed`,
        `duplicates after ${REPLAYS} full replays: ${flush.duplicates} (parked during replays: ${parked}, missing: ${flush.missing})`,
        `wizard step latency median ${latency.all.median.toFixed(1)} ms, p95 ${latency.all.p95.toFixed(1)} ms (goal ≤ ${GOALS.stepLatencyMs} ms)`,
      ],
    };
  });
}

if (isMain(import.meta.url)) {
  const { summary } = await bookingBench();
  console.info(`\n${summary.join('\n')}`);
  process.exit(0);
}
