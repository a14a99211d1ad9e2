/**
 * Decisions that reach the traveller (docs/pwa.md, "Push and background checks"), in real
 * Chromium against the real stack, French and Arabic:
 * - a push delivered to the worker shows the system notification in the device's language,
 *   updates the open page at once (bell, badge), and its click opens the booking;
 * - a staff decision made while the app was closed is found by the Background Sync check;
 * - a guest's success page goes from awaiting to accepted (a push) and to rejected with the
 *   reason (the check when the device comes back online), without a reload;
 * - no permission prompt on first load; the offer comes once a booking is held, and "not now" is
 *   remembered.
 * How a push reaches the worker here: tests/e2e/support/push.ts.
 */
import type { BrowserContext, Page } from '@playwright/test';

import { newCustomer, newPendingBooking, staffSetStatus } from './support/accounts.ts';
import { chromiumLaunchOptions } from './support/browser.ts';
import { expect, test } from './support/fixtures.ts';
import {
  appWorker,
  badges,
  clickNotification,
  countPermissionPrompts,
  deliverPush,
  fireSync,
  newGuestBooking,
  newPushDevice,
  permissionPrompts,
  receivedPush,
  recordBadges,
  shownNotifications,
  staffDecides,
  subscribeGuestDevice,
  type GuestBooking,
} from './support/push.ts';
import { signInThroughUi } from './support/session.ts';
import { workerInControl } from './support/worker.ts';

// The full browser: the headless shell the other specs run in has no notifications (its
// permission is always "denied"), and notifications are what this file is about.
test.use({ launchOptions: chromiumLaunchOptions() });

const TITLES = {
  fr: { accepted: 'Réservation acceptée', rejected: 'Réservation refusée par l’agence' },
  ar: { accepted: 'تم قبول الحجز', rejected: 'رفضت الوكالة الحجز' },
} as const;

async function useLocale(context: BrowserContext, locale: 'fr' | 'ar'): Promise<void> {
  await context.addInitScript((value) => localStorage.setItem('locale', value), locale);
}

async function workerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await workerInControl(page);
}

async function allowNotifications(context: BrowserContext, appUrl: string): Promise<void> {
  await context.grantPermissions(['notifications'], { origin: new URL(appUrl).origin });
}

/** The guest finds the booking with "Find my booking": it is stored on this device from then on. */
async function findAsGuest(page: Page, booking: GuestBooking): Promise<void> {
  await page.goto('/guest-booking');
  await page.locator('input[placeholder="KR-7K3M-9QXD"]').fill(booking.reference);
  await page.locator('input[autocomplete="email"]').fill(booking.email);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByTestId('lookup-result')).toBeVisible({ timeout: 15_000 });
}

for (const locale of ['fr', 'ar'] as const) {
  test(`a guest's page goes from awaiting to accepted by push and to rejected by the online check, without a reload (${locale})`, async ({
    page,
    context,
    e2e,
  }) => {
    await countPermissionPrompts(context);
    await useLocale(context, locale);
    const base = locale === 'ar' ? 40 : 20;
    const [booking, other] = await Promise.all([newGuestBooking(base), newGuestBooking(base + 5)]);

    // First load: no permission prompt, no push subscription attempt.
    await page.goto('/home');
    await expect(page.locator('h1').first()).toBeVisible();
    await workerReady(page);
    await page.waitForTimeout(1_500);
    expect(await permissionPrompts(page)).toEqual([]);
    expect(await page.evaluate(() => Notification.permission)).toBe('default');

    await findAsGuest(page, booking);
    await findAsGuest(page, other);
    await page.goto(`/booking-success?id=${booking.id}`);
    const heading = page.getByTestId('booking-heading');
    await expect(heading).toHaveAttribute('data-stage', 'pending');
    await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
    // The offer, once the server holds the booking: one sentence why, no prompt before a click.
    await expect(page.getByTestId('push-opt-in')).toBeVisible();
    expect(await permissionPrompts(page)).toEqual([]);

    // This device's subscription (the local push service stands in for Chromium's), then a push.
    await allowNotifications(context, e2e.appUrl);
    const device = await newPushDevice();
    await subscribeGuestDevice(booking, device, locale);
    const worker = await appWorker(page);
    await staffDecides(booking.id, 'reserved');
    const push = await receivedPush(device);
    expect(push.json).toMatchObject({ type: 'booking_accepted', reference: booking.reference });
    const delivered = Date.now();
    await deliverPush(worker, push.text);
    await expect(heading).toHaveAttribute('data-stage', 'reserved', { timeout: 2_000 });
    console.info(`[push] guest page updated ${Date.now() - delivered} ms after the push arrived`);
    await expect
      .poll(async () => (await shownNotifications(context)).map((n) => n.title))
      .toContain(TITLES[locale].accepted);
    const [shown] = (await shownNotifications(context)).filter(
      (n) => n.tag === `kiraa-booking-${booking.id}`,
    );
    expect(shown?.body).toContain(booking.reference);
    expect(shown?.data.url).toBe(`/booking-success?id=${booking.id}`);

    // Another booking's page. Offline, the agency refuses it; back online, the page is right
    // within 5 s (no push for it: the check when the device comes back online).
    await page.goto(`/booking-success?id=${other.id}`);
    await expect(heading).toHaveAttribute('data-stage', 'pending');
    await context.setOffline(true);
    const reason = 'Véhicule immobilisé pour entretien';
    await staffDecides(other.id, 'rejected', reason);
    // No "still pending" check here: going offline registered the worker's background check,
    // which Chromium may fire at once because its own network is up (the test's offline is an
    // emulation of the pages), so the worker can learn the decision before we come back.
    await context.setOffline(false);
    await expect(heading).toHaveAttribute('data-stage', 'rejected', { timeout: 5_000 });
    await expect(page.getByTestId('booking-reason')).toContainText(reason);
    // Permission was given by the browser's settings here, never asked by the app; with it, the
    // app renews the device's subscription (Chromium's push service is out of reach offline).
    expect(await permissionPrompts(page)).not.toContain('notifications');
  });
}

test('a push to a signed-in customer: the notification, the bell and the badge at once, a click opens the booking (fr)', async ({
  page,
  context,
  e2e,
}) => {
  await recordBadges(context);
  const customer = await newCustomer('Yanis Push');
  const booking = await newPendingBooking(customer);
  const [row] = (await customer.client.from('bookings').select('reference').eq('id', booking.id))
    .data as Array<{ reference: string }>;
  await allowNotifications(context, e2e.appUrl);
  await signInThroughUi(page, customer);
  await workerReady(page);
  const device = await newPushDevice();
  const { error } = await customer.client.from('push_subscriptions').insert({
    user_id: customer.id,
    endpoint: device.endpoint,
    p256dh: device.keys.p256dh,
    auth: device.keys.auth,
    locale: 'fr',
  });
  expect(error).toBeNull();
  const worker = await appWorker(page);
  await expect(page.getByTestId('notification-dot')).toHaveCount(0);

  await staffSetStatus(booking.id, 'reserved');
  const push = await receivedPush(device);
  await deliverPush(worker, push.text);
  // The worker wrote it into Dexie and told the page: no wait for the 30 s poll.
  await expect(page.getByTestId('notification-dot')).toHaveText('1', { timeout: 2_000 });
  await expect.poll(() => badges(page)).toContain(1);
  const tag = `kiraa-booking-${booking.id}`;
  await expect
    .poll(async () => (await shownNotifications(context)).find((n) => n.tag === tag)?.title)
    .toBe('Réservation acceptée');
  const shown = (await shownNotifications(context)).find((n) => n.tag === tag);
  expect(shown?.body).toBe(`Votre réservation ${row!.reference} est confirmée. À bientôt !`);

  // The click opens that booking's details in the open app.
  await clickNotification(context, tag);
  await expect(page).toHaveURL(/\/mybookings/);
  await expect(page.getByRole('dialog')).toContainText(row!.reference);
  await page.keyboard.press('Escape');

  // The badge follows the unread count down to nothing.
  await page.getByTestId('notification-bell').click();
  await page.getByRole('button', { name: 'Tout marquer comme lu' }).click();
  await expect(page.getByTestId('notification-dot')).toHaveCount(0);
  await expect.poll(async () => (await badges(page)).at(-1)).toBe(0);
});

test('a decision made while the app was closed is found by the background check (ar)', async ({
  page,
  context,
  e2e,
}) => {
  const customer = await newCustomer('Rania Sync');
  const booking = await newPendingBooking(customer);
  await allowNotifications(context, e2e.appUrl);
  await signInThroughUi(page, customer);
  await page.evaluate(() => localStorage.setItem('locale', 'ar'));
  await page.goto('/mybookings');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await workerReady(page);
  // The app has run once in Arabic: the worker knows the language.
  await page.waitForTimeout(1_000);

  // The app is closed; the browser stays open on another site.
  const other = await context.newPage();
  await other.goto(e2e.pushUrl);
  await page.close();
  const worker = await appWorker(other);

  await staffSetStatus(booking.id, 'reserved');
  // The network comes back: Chromium fires the worker's Background Sync, which checks.
  await fireSync(worker);
  const tag = `kiraa-booking-${booking.id}`;
  await expect
    .poll(async () => (await shownNotifications(context)).find((n) => n.tag === tag)?.title, {
      timeout: 10_000,
    })
    .toBe(TITLES.ar.accepted);

  // What the check found is on the device: the app opened offline shows it.
  await context.setOffline(true);
  const app = await context.newPage();
  await app.goto('/mybookings');
  await expect(app.getByTestId('notification-dot')).toHaveText('1');
  await context.setOffline(false);
});
