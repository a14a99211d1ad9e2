/**
 * `npm run bench -- push`: how long a staff decision takes to reach the traveller's device, in
 * headless Chromium against the production build and the real local stack, median of 5 each:
 * - open page: the decision (staff's RPC call) → the open, visible app shows it (the bell's count);
 * - hidden page: → the system notification, the app's tab in the background and frozen (what a
 *   phone does to background tabs; headless Chromium reports every tab visible otherwise);
 * - closed app (push): → the system notification, no page of the app open;
 * - guest page after coming online: the device back online → its success page shows the decision
 *   taken while it was offline (no push: the online check).
 * Goals: ≤ 2 s open, ≤ 5 s closed with push, the guest page right ≤ 5 s after it comes online.
 *
 * The path measured: decision → notification row → push outbox → webhook (pg_net) → push-send
 * (Deno, RFC 8291 + VAPID) → the local push service, which checks and decrypts it → the relay
 * below hands it to the worker (`ServiceWorker.deliverPushMessage`, as Chromium does with a
 * message from its push service) → the worker. A real push service (FCM, Mozilla, Apple) adds its
 * own delivery time, which no local measure can include.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { newCustomer, newPendingBooking, staffSetStatus } from '../e2e/support/accounts.ts';
import { chromiumLaunchOptions } from '../e2e/support/browser.ts';
import type { E2eEnv } from '../e2e/support/env.ts';
import {
  appWorker,
  deliverPush,
  newGuestBooking,
  newPushDevice,
  shownNotifications,
  staffDecides,
  type PushDevice,
  type Worker,
} from '../e2e/support/push.ts';
import { fetchPushes } from '../support/supabase.ts';
import { isMain, printTable, stats, withBuiltApp } from './support.ts';

export const GOALS = { openMs: 2_000, closedMs: 5_000, guestOnlineMs: 5_000 } as const;
const RUNS = 5;

/** Hands every new message of `device` to the worker, as a browser's push service would. */
function startRelay(env: E2eEnv, device: PushDevice, worker: () => Worker) {
  const delivered = new Set<number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const push of await fetchPushes(env.pushUrl, device.endpoint).catch(() => [])) {
        if (delivered.has(push.id)) continue;
        delivered.add(push.id);
        await deliverPush(worker(), push.text).catch((error: unknown) =>
          console.warn('relay:', (error as Error).message),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

async function until(probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function clearNotifications(context: BrowserContext, appOrigin: string): Promise<void> {
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(appOrigin));
  await worker
    ?.evaluate(async () => {
      const scope = self as unknown as {
        registration: { getNotifications(): Promise<Array<{ close(): void }>> };
      };
      for (const n of await scope.registration.getNotifications()) n.close();
    })
    .catch(() => undefined);
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in?redirectUrl=%2Fmybookings');
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL(/\/mybookings$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

export default async function run(): Promise<{ summary: string[] }> {
  return withBuiltApp(async (env) => {
    const browser = await chromium.launch(chromiumLaunchOptions());
    const context = await browser.newContext({
      baseURL: env.appUrl,
      locale: 'fr-FR',
      serviceWorkers: 'allow',
      viewport: { width: 390, height: 844 },
    });
    const origin = new URL(env.appUrl).origin;
    await context.grantPermissions(['notifications'], { origin });
    const results: Record<'open' | 'hidden' | 'closed' | 'guest', number[]> = {
      open: [],
      hidden: [],
      closed: [],
      guest: [],
    };
    try {
      // A signed-in customer whose device is subscribed (the local push service's subscription).
      const customer = await newCustomer('Bench Push');
      const device = await newPushDevice();
      await customer.client.from('push_subscriptions').insert({
        user_id: customer.id,
        endpoint: device.endpoint,
        p256dh: device.keys.p256dh,
        auth: device.keys.auth,
        locale: 'fr',
      });
      // One pending booking at a time (an account may hold 5 pending), made before each timing.
      const nextBooking = () => newPendingBooking(customer);

      const relayPage = await context.newPage();
      await relayPage.goto(env.pushUrl);
      let app = await context.newPage();
      await signIn(app, customer.email, customer.password);
      const worker = await appWorker(relayPage);
      const stopRelay = startRelay(env, device, () => worker);
      const notified = async (bookingId: string) =>
        (await shownNotifications(context)).some((n) => n.tag === `kiraa-booking-${bookingId}`);

      // Open and visible: the bell's count.
      await app.bringToFront();
      for (let i = 0; i < RUNS; i++) {
        const booking = await nextBooking();
        const started = Date.now();
        await staffSetStatus(booking.id, 'reserved');
        await until(
          async () => (await app.getByTestId('notification-dot').textContent()) === `${i + 1}`,
        );
        results.open.push(Date.now() - started);
      }

      // Hidden: headless Chromium keeps every tab 'visible', so the app's tab is put in the state
      // a background tab reaches on a phone: frozen (no script runs in it; the worker still does).
      await relayPage.bringToFront();
      const appCdp = await context.newCDPSession(app);
      await appCdp.send('Page.setWebLifecycleState', { state: 'frozen' });
      const visibility = 'frozen';
      for (let i = 0; i < RUNS; i++) {
        await clearNotifications(context, origin);
        const booking = await nextBooking();
        const started = Date.now();
        await staffSetStatus(booking.id, 'reserved');
        await until(() => notified(booking.id));
        results.hidden.push(Date.now() - started);
      }

      // Closed: no page of the app.
      await appCdp.send('Page.setWebLifecycleState', { state: 'active' });
      await app.close();
      for (let i = 0; i < RUNS; i++) {
        await clearNotifications(context, origin);
        const booking = await nextBooking();
        const started = Date.now();
        await staffSetStatus(booking.id, 'reserved');
        await until(() => notified(booking.id));
        results.closed.push(Date.now() - started);
      }
      await stopRelay();

      // A guest's success page, the decision taken while the device was offline.
      app = await context.newPage();
      for (let i = 0; i < RUNS; i++) {
        const booking = await newGuestBooking(30 + i * 5);
        await app.goto('/guest-booking');
        await app.locator('input[placeholder="KR-7K3M-9QXD"]').fill(booking.reference);
        await app.locator('input[autocomplete="email"]').fill(booking.email);
        await app.locator('form button[type="submit"]').click();
        await app.getByTestId('lookup-result').waitFor({ timeout: 15_000 });
        await app.goto(`/booking-success?id=${booking.id}`);
        const heading = app.getByTestId('booking-heading');
        await until(async () => (await heading.getAttribute('data-stage')) === 'pending');
        await context.setOffline(true);
        await staffDecides(booking.id, 'rejected', 'Véhicule en maintenance');
        const started = Date.now();
        await context.setOffline(false);
        await until(async () => (await heading.getAttribute('data-stage')) === 'rejected');
        results.guest.push(Date.now() - started);
      }

      const rows = [
        { what: 'open page (the bell)', samples: results.open, goal: GOALS.openMs },
        {
          what: `hidden page (system notification; the tab ${visibility})`,
          samples: results.hidden,
          goal: GOALS.closedMs,
        },
        { what: 'closed app (push)', samples: results.closed, goal: GOALS.closedMs },
        {
          what: 'guest page after coming online',
          samples: results.guest,
          goal: GOALS.guestOnlineMs,
        },
      ].map((r) => {
        const s = stats(r.samples);
        return {
          what: r.what,
          median: `${s.median} ms`,
          min: `${s.min} ms`,
          max: `${s.max} ms`,
          goal: `≤ ${r.goal} ms`,
          met: s.median <= r.goal ? 'yes' : 'NO',
        };
      });
      console.info(`\nStaff decision → the device, median of ${RUNS} (samples in ms):`);
      for (const [name, samples] of Object.entries(results)) {
        console.info(`  ${name}: ${samples.join(', ')}`);
      }
      printTable(rows);
      return { summary: rows.map((r) => `${r.what}: ${r.median} (goal ${r.goal}, met: ${r.met})`) };
    } finally {
      await context.close();
      await browser.close();
    }
  });
}

if (isMain(import.meta.url)) {
  await run();
  process.exit(0);
}
