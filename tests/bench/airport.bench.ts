/**
 * The airport profile (issue 24): a phone on an airport's network, in headless Chromium with the
 * production build against the local stack (on PostgreSQL when this machine has it, support.ts
 * `withProductionApp`). Chrome DevTools Protocol on every page:
 * `Network.emulateNetworkConditions` (400 ms round trip, 400 kbit/s down, 200 kbit/s up) and
 * `Emulation.setCPUThrottlingRate` (4×). Each measure is the median of RUNS runs, each in a fresh
 * browser context (no cache, no IndexedDB, no service worker):
 * - first visit to /home and to /cars until the first car is visible, and to the booking wizard
 *   (/cars/book?car=…) until it can take input (step 1 with an enabled field); on /cars also
 *   until the app's own cards replace index.html's (the list can be used);
 * - a repeat visit to /cars and to the wizard online with the service worker warm (the first
 *   visit's context);
 * - the first visit to /cars with 46, 1,000 and 5,000 cars in the fleet (extra cars inserted in
 *   the bench's own database only, then deleted): first car visible and the whole sync done.
 * Beside each time: the lower bound the bytes and round trips themselves impose, bytes received
 * before the moment ÷ 400 kbit/s + 400 ms × the round trips of the critical chain (the longest
 * run of requests each of which started only after the one before had finished), and the ratio.
 * Times come from the page (performance marks on the frame after the element appeared, relative
 * to the navigation's start); bytes and requests from the DevTools protocol. That frame starts
 * before the browser styles, lays out and paints the car: beside it, `painted` is when the first
 * car's heading was painted (the page's Element Timing entry). LCP and CLS are the page's own
 * PerformanceObserver entries. Goals are printed, never asserted.
 *
 * `npx tsx tests/bench/airport.bench.ts`, or `npm run bench -- airport`.
 * KIRAA_AIRPORT_RUNS (default 5), KIRAA_AIRPORT_FLEETS=46,1000 narrows the fleet sizes.
 */
import { loadavg } from 'node:os';

import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

import { chromiumLaunchOptions } from '../e2e/support/browser.ts';
import type { E2eEnv } from '../e2e/support/env.ts';
import { CATALOGUE_SYNCED_KEY } from '../../src/sync/catalogue-prefetch.ts';
import { isMain, kb, printTable, withProductionApp } from './support.ts';

export const PROFILE = { rttMs: 400, downKbps: 400, upKbps: 200, cpuSlowdown: 4 } as const;
export const GOALS = { firstCarMs: 3_000, repeatVisitMs: 600, cls: 0.01 } as const;
const RUNS = Math.max(1, Number(process.env.KIRAA_AIRPORT_RUNS ?? 5) || 5);
const FLEETS = (process.env.KIRAA_AIRPORT_FLEETS ?? '46,1000,5000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** The seed's car used for the wizard (tests/e2e/catalogue.spec.ts, PRICED_CAR). */
const WIZARD_CAR = 'ca000000-0000-4000-8000-000000000043';

/*
 * Page code is plain JavaScript strings: tsx compiles this file with esbuild's keepNames, whose
 * `__name()` helper does not exist in the page.
 */

/** What each mark waits for (a first car: the app's card, or one index.html drew before it). */
const SELECTORS = {
  'kiraa:first-car': '[data-testid="car-link"], [data-first-card]',
  'kiraa:wizard-input': 'main form :is(input, select):not([disabled])',
  'kiraa:app-cards': '[data-testid="car-link"]',
  'kiraa:sync-done': '[data-testid="last-updated"]',
} as const;
type Mark = keyof typeof SELECTORS;

/**
 * Before any page script: a mark on the frame after each watched element first appears
 * (`kiraa:first-car`, `kiraa:wizard-input`, `kiraa:sync-done`), and LCP and CLS observers.
 */
const WATCH = `
  (() => {
    const watched = ${JSON.stringify(SELECTORS)};
    const pending = new Set(Object.keys(watched));
    const check = () => {
      for (const name of [...pending]) {
        if (!document.querySelector(watched[name])) continue;
        pending.delete(name);
        requestAnimationFrame(() => performance.mark(name));
        if (name === 'kiraa:first-car') {
          // Its heading's paint, from the browser (Element Timing): the frame above starts
          // before its style, layout and paint, which a slow phone takes a while to do.
          const card = document.querySelector(watched[name]);
          const heading = card && (card.closest('li') || card).querySelector('h3');
          if (heading) heading.setAttribute('elementtiming', name);
        }
      }
      if (!pending.size) observer.disconnect();
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true });
    window.__kiraaBench = { lcp: 0, cls: 0, shifts: [], painted: NaN };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.identifier === 'kiraa:first-car' && Number.isNaN(window.__kiraaBench.painted)) {
          window.__kiraaBench.painted = entry.renderTime || entry.loadTime;
        }
      }
    }).observe({ type: 'element', buffered: true });
    const name = (node) => {
      if (!node || node.nodeType !== 1) return String(node && node.nodeName);
      const id = node.getAttribute('data-testid') || node.id;
      const cls = (node.getAttribute('class') || '').split(' ').slice(0, 3).join('.');
      return node.tagName.toLowerCase() + (id ? '#' + id : '') + (cls ? '.' + cls : '');
    };
    const box = (r) => Math.round(r.y) + '+' + Math.round(r.height);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__kiraaBench.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.__kiraaBench.cls += entry.value;
        window.__kiraaBench.shifts.push(
          Math.round(entry.startTime) + ' ms ' + entry.value.toFixed(4) + ': ' +
            entry.sources.map((s) => name(s.node) + ' y ' + box(s.previousRect) + ' → ' + box(s.currentRect)).join(', '),
        );
      }
    }).observe({ type: 'layout-shift', buffered: true });
  })();
`;

/** The mark's time; called once its element is on the page (the mark follows a frame later). */
const READ_MARK = (name: Mark) => `
  (async () => {
    for (let tries = 0; tries < 500; tries += 1) {
      const [mark] = performance.getEntriesByName(${JSON.stringify(name)});
      if (mark) return mark.startTime;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no ${name} mark');
  })()
`;

/**
 * One request as the DevTools protocol saw it (times in ms since the document request); `local`
 * when the service worker answered it from its cache: no byte and no round trip on the network.
 */
type Request = { url: string; start: number; end: number; bytes: number; local?: boolean };

/** Applies the airport profile to a page and records its requests. */
async function throttle(context: BrowserContext, page: Page): Promise<() => Request[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PROFILE.rttMs,
    downloadThroughput: (PROFILE.downKbps * 1000) / 8,
    uploadThroughput: (PROFILE.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown });
  const started = new Map<string, { url: string; at: number }>();
  const local = new Set<string>();
  const done: Array<{ url: string; at: number; end: number; bytes: number; local: boolean }> = [];
  let documentAt: number | null = null;
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.type === 'Document' && documentAt === null) documentAt = event.timestamp;
    started.set(event.requestId, { url: event.request.url, at: event.timestamp });
  });
  cdp.on('Network.responseReceived', (event) => {
    if (event.response.serviceWorkerResponseSource === 'cache-storage') local.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = started.get(event.requestId);
    if (!request) return;
    done.push({
      ...request,
      end: event.timestamp,
      bytes: event.encodedDataLength,
      local: local.has(event.requestId),
    });
  });
  return () => {
    const zero = documentAt ?? 0;
    return done.map((r) => ({
      url: r.url,
      start: (r.at - zero) * 1000,
      end: (r.end - zero) * 1000,
      bytes: r.bytes,
      local: r.local,
    }));
  };
}

/**
 * The lower bound of a moment `at` (ms since the document request): the bytes of the requests
 * finished by then at the profile's bandwidth, plus one round trip per request of the critical
 * chain (from the last request finished before `at`, back through the request that finished
 * last before each one started). What the service worker answered from its cache costs the
 * network nothing: a repeat visit's bound is then 0, all its time is the phone's own work.
 */
export function lowerBound(requests: Request[], at: number) {
  const before = requests.filter((r) => r.end <= at + 1 && !r.local);
  const bytes = before.reduce((sum, r) => sum + r.bytes, 0);
  let chain = 0;
  let current = [...before].sort((a, b) => b.end - a.end)[0];
  while (current) {
    chain += 1;
    const { start, end } = current;
    // Strictly earlier ends only: a request that took no time (a data: URL) is not its own cause.
    current = before
      .filter((r) => r.end <= start + 1 && r.end < end)
      .sort((a, b) => b.end - a.end)[0];
  }
  const ms = (bytes * 8) / PROFILE.downKbps + chain * PROFILE.rttMs;
  return { bytes, chain, ms, requests: before.length };
}

type Sample = {
  ms: number;
  bound: number;
  bytes: number;
  chain: number;
  lcp: number;
  cls: number;
  /** The first car's heading painted (Element Timing); NaN for the other measures. */
  painted: number;
};

/** Waits (at most 2 minutes) for the mark's element, then reads the mark. */
async function readMark(page: Page, mark: Mark): Promise<number> {
  await page.locator(SELECTORS[mark]).first().waitFor({ state: 'attached', timeout: 120_000 });
  return (await page.evaluate(READ_MARK(mark))) as number;
}

async function measure(
  context: BrowserContext,
  url: string,
  mark: Mark,
): Promise<{ sample: Sample; page: Page }> {
  const page = await context.newPage();
  const requests = await throttle(context, page);
  await page.goto(url, { timeout: 120_000, waitUntil: 'commit' });
  const ms = await readMark(page, mark);
  console.info(
    `  ${new URL(url).pathname} → ${mark.replace('kiraa:', '')} at ${Math.round(ms)} ms`,
  );
  // Let LCP and layout shifts settle a little after the moment measured.
  await page.waitForTimeout(1_000);
  const { lcp, cls, shifts, painted } = (await page.evaluate('window.__kiraaBench')) as {
    lcp: number;
    cls: number;
    shifts: string[];
    painted: number | null;
  };
  // What moved (element, its top and height before → after), to find a shift's cause.
  for (const shift of shifts) console.info(`    layout shift at ${shift}`);
  const bound = lowerBound(requests(), ms);
  return {
    sample: {
      ms,
      bound: bound.ms,
      bytes: bound.bytes,
      chain: bound.chain,
      lcp,
      cls,
      painted: mark === 'kiraa:first-car' ? (painted ?? NaN) : NaN,
    },
    page,
  };
}

async function freshContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'fr-FR',
    timezoneId: 'Africa/Algiers',
  });
  await context.addInitScript({ content: WATCH });
  return context;
}

function median(samples: Sample[]): Sample {
  const pick = (key: keyof Sample) => {
    // NaN: not measured (a bound for the sync, a paint for the wizard).
    const sorted = samples
      .map((s) => s[key])
      .filter((value) => !Number.isNaN(value))
      .sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN;
  };
  return {
    ms: pick('ms'),
    bound: pick('bound'),
    bytes: pick('bytes'),
    chain: pick('chain'),
    lcp: pick('lcp'),
    cls: pick('cls'),
    painted: pick('painted'),
  };
}

type Row = { name: string; goal: number | null; median: Sample; all: number[] };

function row(name: string, goal: number | null, samples: Sample[]): Row {
  return { name, goal, median: median(samples), all: samples.map((s) => Math.round(s.ms)) };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Measured ÷ bound; none when nothing went over the network (a repeat visit: bound 0). */
function ratio(m: Sample): string {
  if (Number.isNaN(m.bound)) return '';
  return m.bound > 0 ? (m.ms / m.bound).toFixed(2) : '—';
}

function describe(r: Row): string {
  const m = r.median;
  const goal = r.goal === null ? '' : ` (goal ≤ ${s(r.goal)} ${m.ms <= r.goal ? '✓' : '✗'})`;
  // No bound for a moment measured after another one of the same load (the app's cards).
  const bound = Number.isNaN(m.bound)
    ? ''
    : ` lower bound ${s(m.bound)} (${kb(m.bytes)}, ${m.chain} round trips), ratio ${ratio(m)};`;
  return (
    `${r.name}: ${s(m.ms)}${goal};${bound}` +
    `${Number.isNaN(m.painted) ? '' : ` painted ${s(m.painted)};`} ` +
    `LCP ${s(m.lcp)}, CLS ${m.cls.toFixed(3)} (goal ≤ ${GOALS.cls})`
  );
}

/** Inserts copies of a seed car until the fleet holds `size` active cars; returns the count. */
async function growFleet(dbUrl: string, size: number): Promise<number> {
  // A connection only while seeding: the local stack's PGlite serves one connection at a time.
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    return await seedFleet(db, size);
  } finally {
    await db.end();
  }
}

async function seedFleet(db: pg.Client, size: number): Promise<number> {
  await db.query(`delete from public.cars where slug like 'bench-car-%'`);
  const { rows } = await db.query<{ n: string }>(
    'select count(*) as n from public.cars where active',
  );
  const extra = Math.max(0, size - Number(rows[0]!.n));
  if (extra > 0) {
    await db.query(
      `insert into public.cars (slug, name, make, model, body, seats, doors, passengers, fuel, year,
         transmission, drive, engine, mileage_km, exterior_color, interior_color, features,
         description, daily_rate_dzd, deposit_dzd, images)
       select 'bench-car-' || n, c.name || ' #' || n, c.make, c.model, c.body, c.seats, c.doors,
         c.passengers, c.fuel, c.year, c.transmission, c.drive, c.engine, c.mileage_km + n,
         c.exterior_color, c.interior_color, c.features, c.description,
         c.daily_rate_dzd + (n % 50) * 100, c.deposit_dzd, c.images
       from (select * from public.cars where active order by id limit 1) c,
         generate_series(1, $1::int) n`,
      [extra],
    );
  }
  const after = await db.query<{ n: string }>('select count(*) as n from public.cars where active');
  return Number(after.rows[0]!.n);
}

export default async function airportBench(): Promise<{ summary: string[] }> {
  return withProductionApp(async (env: E2eEnv) => {
    const browser = await chromium.launch(chromiumLaunchOptions());
    try {
      const rows: Row[] = [];
      const home: Sample[] = [];
      const cars: Sample[] = [];
      const carsApp: Sample[] = [];
      const wizard: Sample[] = [];
      const repeat: Sample[] = [];
      const repeatWizard: Sample[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        for (const [path, mark, into] of [
          ['/home', 'kiraa:first-car', home],
          ['/cars', 'kiraa:first-car', cars],
          [`/cars/book?car=${WIZARD_CAR}`, 'kiraa:wizard-input', wizard],
        ] as const) {
          const context = await freshContext(browser);
          try {
            const { sample, page } = await measure(context, `${env.appUrl}${path}`, mark);
            into.push(sample);
            if (path === '/cars') {
              const appCards = await readMark(page, 'kiraa:app-cards');
              carsApp.push({ ...sample, ms: appCards, bound: NaN, painted: NaN });
              // Repeat visit: the worker controls the page and the catalogue is on the device.
              await readMark(page, 'kiraa:sync-done');
              await page.waitForFunction('!!navigator.serviceWorker.controller', null, {
                timeout: 120_000,
              });
              await page.close();
              repeat.push((await measure(context, `${env.appUrl}/cars`, mark)).sample);
            } else if (mark === 'kiraa:wizard-input') {
              // The same for the wizard, once the catalogue is on the device.
              await page.waitForFunction(
                `!!navigator.serviceWorker.controller && !!localStorage.getItem(${JSON.stringify(CATALOGUE_SYNCED_KEY)})`,
                null,
                { timeout: 120_000 },
              );
              await page.close();
              repeatWizard.push((await measure(context, `${env.appUrl}${path}`, mark)).sample);
            }
          } finally {
            await context.close();
          }
        }
        console.info(`run ${run + 1}/${RUNS} done`);
      }
      rows.push(row('first visit /home → first car', GOALS.firstCarMs, home));
      rows.push(row('first visit /cars → first car', GOALS.firstCarMs, cars));
      rows.push(row("first visit /cars → the app's cards", null, carsApp));
      rows.push(row('first visit wizard → takes input', null, wizard));
      rows.push(row('repeat visit /cars (worker warm) → first car', GOALS.repeatVisitMs, repeat));
      rows.push(row('repeat visit wizard (worker warm) → takes input', null, repeatWizard));

      const fleets: Row[] = [];
      for (const size of FLEETS) {
        const count = await growFleet(env.dbUrl, size);
        const firstCar: Sample[] = [];
        const syncDone: Sample[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          const context = await freshContext(browser);
          try {
            const { sample, page } = await measure(
              context,
              `${env.appUrl}/cars`,
              'kiraa:first-car',
            );
            firstCar.push(sample);
            const done = await readMark(page, 'kiraa:sync-done');
            syncDone.push({ ...sample, ms: done, bound: NaN, painted: NaN });
          } finally {
            await context.close();
          }
        }
        fleets.push(
          row(`${count} cars: first visit /cars → first car`, GOALS.firstCarMs, firstCar),
        );
        const sync = row(`${count} cars: first visit /cars → sync done`, null, syncDone);
        fleets.push(sync);
      }
      await growFleet(env.dbUrl, 0);

      console.info(
        `\nAirport profile: ${PROFILE.rttMs} ms round trip, ${PROFILE.downKbps} kbit/s down, ` +
          `${PROFILE.upKbps} kbit/s up, CPU ${PROFILE.cpuSlowdown}× slower; median of ${RUNS}`,
      );
      printTable(
        [...rows, ...fleets].map((r) => ({
          measure: r.name,
          median: s(r.median.ms),
          goal: r.goal === null ? '' : s(r.goal),
          'lower bound': Number.isNaN(r.median.bound) ? '' : s(r.median.bound),
          ratio: ratio(r.median),
          bytes: Number.isNaN(r.median.bound) ? '' : kb(r.median.bytes),
          'round trips': Number.isNaN(r.median.bound) ? '' : r.median.chain,
          painted: Number.isNaN(r.median.painted) ? '' : s(r.median.painted),
          LCP: s(r.median.lcp),
          CLS: r.median.cls.toFixed(3),
          runs: r.all.join(' '),
        })),
      );
      const load = loadavg()
        .map((n) => n.toFixed(1))
        .join(' ');
      const summary = [
        `machine load average (1/5/15 min): ${load}`,
        ...rows.map(describe),
        ...fleets.filter((r) => !r.name.endsWith('sync done')).map(describe),
        ...fleets
          .filter((r) => r.name.endsWith('sync done'))
          .map((r) => `${r.name}: ${s(r.median.ms)}`),
      ];
      for (const line of summary) console.info(line);
      return { summary };
    } finally {
      await browser.close();
    }
  });
}

if (isMain(import.meta.url)) {
  await airportBench();
  process.exit(0);
}
