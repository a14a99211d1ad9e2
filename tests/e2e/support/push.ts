/**
 * Web Push in the browser specs (tests/e2e/push.spec.ts). The machines have no internet, so
 * Chromium cannot reach its own push service (FCM): a device's subscription comes from the
 * stack's local push service instead, push-send encrypts for it and the local push service
 * decrypts what arrived; the test then hands that payload to the service worker with the
 * DevTools protocol (`ServiceWorker.deliverPushMessage`), which is what Chromium does with a
 * message from FCM. `ServiceWorker.dispatchSyncEvent` / `dispatchPeriodicSyncEvent` fire the
 * browser's background checks the same way.
 */
import { randomInt, randomUUID } from 'node:crypto';

import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import pg from 'pg';

import {
  subscribePushDevice,
  waitForFileChecks,
  waitForPushAt,
  type PushDevice,
  type ReceivedPush,
} from '../../support/supabase.ts';
import { algiersAt, apiClient, signedInClient } from './accounts.ts';
import { readE2eEnv } from './env.ts';
import { DEMO_ADMIN } from './session.ts';

export type { PushDevice, ReceivedPush };

/** A device as the local push service knows it (what `PushManager.subscribe` would give). */
export function newPushDevice(): Promise<PushDevice> {
  const e2e = readE2eEnv();
  return subscribePushDevice(e2e.pushUrl, e2e.vapidPublicKey);
}

/** Waits for the message push-send sent to this device, decrypted by the local push service. */
export function receivedPush(device: PushDevice, timeoutMs = 15_000): Promise<ReceivedPush> {
  return waitForPushAt(readE2eEnv().pushUrl, device.endpoint, undefined, timeoutMs);
}

/** The DevTools protocol's handle on the app's service worker registration. */
export type Worker = { cdp: CDPSession; origin: string; registrationId: string };

/** Attaches through `page` (any page of the browser; the app may be closed) to the app's worker. */
export async function appWorker(page: Page): Promise<Worker> {
  const origin = new URL(readE2eEnv().appUrl).origin;
  const cdp = await page.context().newCDPSession(page);
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const registration = event.registrations.find(
        (r) => !r.isDeleted && new URL(r.scopeURL).origin === origin,
      );
      if (registration) resolve(registration.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await Promise.race([
    found,
    new Promise<string>((_, reject) =>
      setTimeout(() => reject(new Error('no service worker registration')), 10_000),
    ),
  ]);
  return { cdp, origin, registrationId };
}

/** Chromium hands a push message to the worker, as it does with one from its push service. */
export async function deliverPush(worker: Worker, data: string): Promise<void> {
  await worker.cdp.send('ServiceWorker.deliverPushMessage', {
    origin: worker.origin,
    registrationId: worker.registrationId,
    data,
  });
}

/** The network came back (Background Sync) for the news check. */
export async function fireSync(worker: Worker, tag = 'kiraa-news-check'): Promise<void> {
  await worker.cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: worker.origin,
    registrationId: worker.registrationId,
    tag,
    lastChance: false,
  });
}

export type Shown = { title: string; body: string; tag: string; data: { url: string } };

/** The worker's global scope, as much of it as these helpers use (no webworker typings here). */
type WorkerScope = {
  registration: {
    getNotifications(filter?: {
      tag?: string;
    }): Promise<Array<{ title: string; body: string; tag: string; data: unknown }>>;
  };
  dispatchEvent(event: Event): boolean;
  NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
};

/** The system notifications the app's worker shows now (asked of the worker itself). */
export async function shownNotifications(context: BrowserContext): Promise<Shown[]> {
  const origin = new URL(readE2eEnv().appUrl).origin;
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(origin));
  if (!worker) return [];
  try {
    return await worker.evaluate(async () => {
      const scope = self as unknown as WorkerScope;
      const list = await scope.registration.getNotifications();
      return list.map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        data: n.data as { url: string },
      }));
    });
  } catch {
    // The worker was stopped between the lookup and the call: nothing to read now.
    return [];
  }
}

/**
 * The person clicks the notification with this tag. Chromium has no DevTools call for that, so
 * the worker is given the event the browser would fire (without the user activation a real click
 * carries: opening a new window needs one, focusing or messaging an open page does not).
 */
export async function clickNotification(context: BrowserContext, tag: string): Promise<void> {
  const origin = new URL(readE2eEnv().appUrl).origin;
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(origin));
  if (!worker) throw new Error('no service worker');
  await worker.evaluate(async (wanted) => {
    const scope = self as unknown as WorkerScope;
    const [notification] = await scope.registration.getNotifications({ tag: wanted });
    if (!notification) throw new Error(`no notification ${wanted}`);
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
  }, tag);
}

/**
 * Records the page's calls of the Badging API (`window.__badges`), calling the browser's own
 * where it has one. Add before the page loads.
 */
export async function recordBadges(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const nav = navigator as Navigator & {
      setAppBadge?: (n?: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    const calls: number[] = [];
    (window as unknown as { __badges: number[] }).__badges = calls;
    const set = nav.setAppBadge?.bind(nav);
    const clear = nav.clearAppBadge?.bind(nav);
    nav.setAppBadge = (n?: number) => {
      calls.push(n ?? 0);
      return set ? set(n).catch(() => undefined) : Promise.resolve();
    };
    nav.clearAppBadge = () => {
      calls.push(0);
      return clear ? clear().catch(() => undefined) : Promise.resolve();
    };
  });
}

export function badges(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __badges: number[] }).__badges ?? []);
}

/** Counts the page's permission requests and push subscriptions (`window.__asked`). */
export async function countPermissionPrompts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { __asked: string[] }).__asked = asked;
    if (typeof Notification !== 'undefined') {
      const request = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args) => {
        asked.push('notifications');
        return request(...args);
      };
    }
    if (typeof PushManager !== 'undefined') {
      const subscribe = PushManager.prototype.subscribe;
      PushManager.prototype.subscribe = function (this: PushManager, options) {
        asked.push('push');
        return subscribe.call(this, options);
      };
    }
  });
}

export function permissionPrompts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __asked: string[] }).__asked ?? []);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export type GuestBooking = { id: string; reference: string; email: string; phone: string };

/**
 * A guest's pending booking made through the API (a car of its own, its licence checked, the
 * e-mail confirmed as with the mailed code), as if booked on another device.
 */
export async function newGuestBooking(daysAhead = 20): Promise<GuestBooking> {
  const e2e = readE2eEnv();
  const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const { data: car, error: carError } = await admin
    .from('cars')
    .insert({
      slug: `e2e-push-${randomUUID().slice(0, 8)}`,
      name: 'Dacia Sandero',
      make: 'Dacia',
      model: 'Sandero',
      body: 'hatchback',
      seats: 5,
      doors: 5,
      passengers: 5,
      fuel: 'diesel',
      year: 2024,
      transmission: 'manual',
      drive: 'fwd',
      engine: '1.5 dCi',
      mileage_km: 1000,
      exterior_color: 'white',
      interior_color: 'black',
      features: ['air_conditioning'],
      description: { fr: 'Voiture de test', en: 'Test car', ar: 'سيارة اختبار' },
      daily_rate_dzd: 4500,
      deposit_dzd: 30000,
      images: [],
    })
    .select('id')
    .single();
  if (carError) throw new Error(`car insert refused: ${carError.message}`);
  const visitor = apiClient();
  const { data: location } = await visitor
    .from('locations')
    .select('id')
    .eq('active', true)
    // Open every day 06:00–23:00 (docs/opening-hours.md): any test date and 10:00 fit.
    .eq('kind', 'airport')
    .limit(1)
    .single();
  const id = randomUUID();
  const path = `${id}/permis.png`;
  const { error: uploadError } = await visitor.storage
    .from('licenses')
    .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
  if (uploadError) throw new Error(`licence upload refused: ${uploadError.message}`);
  const chars = Array.from({ length: 8 }, () => CROCKFORD[randomInt(32)]).join('');
  const reference = `KR-${chars.slice(0, 4)}-${chars.slice(4)}`;
  const email = `guest-push-${randomUUID().slice(0, 8)}@kiraa.test`;
  const phone = `+2135${String(randomInt(10_000_000, 99_999_999))}`;
  const { error } = await visitor.rpc('create_booking', {
    p: {
      id,
      reference,
      car_id: (car as { id: string }).id,
      // 10:00 in Algiers: now's hour of the day may be outside the place's hours (23:18 was).
      start_at: algiersAt(daysAhead),
      end_at: algiersAt(daysAhead + 2),
      pickup_location_id: (location as { id: string }).id,
      dropoff_location_id: (location as { id: string }).id,
      driver_option: 'self',
      license_path: path,
      from_abroad: false,
      extras: [],
      insurance: ['civil_liability'],
      guest_name: 'Nadia Push',
      guest_phone: phone,
      guest_email: email,
      locale: 'fr',
    },
  });
  if (error) throw new Error(`create_booking refused: ${error.message} (${error.details})`);
  // The e-mail confirmed, as the mailed code does (the code's hash set to a known one).
  const db = new pg.Client({ connectionString: e2e.dbUrl });
  await db.connect();
  try {
    await db.query(
      `update internal.guest_confirmations
          set code_hash = internal.confirmation_code_hash($1, '24681357') where booking_id = $1`,
      [id],
    );
  } finally {
    await db.end();
  }
  const { data: confirmed } = await visitor.rpc('confirm_guest_booking', {
    reference,
    code: '24681357',
  });
  if (!(confirmed as { confirmed?: boolean } | null)?.confirmed) {
    throw new Error(`confirm_guest_booking refused: ${JSON.stringify(confirmed)}`);
  }
  await waitForFileChecks(e2e.dbUrl, id);
  return { id, reference, email, phone };
}

/** Binds a device to a guest booking as the app does (`subscribe_guest_push`, the lookup's proof). */
export async function subscribeGuestDevice(
  booking: GuestBooking,
  device: PushDevice,
  locale: string,
): Promise<void> {
  const { data, error } = await apiClient().rpc('subscribe_guest_push', {
    reference: booking.reference,
    contact: booking.email,
    endpoint: device.endpoint,
    p256dh: device.keys.p256dh,
    auth: device.keys.auth,
    locale,
  });
  if (error || !(data as { subscribed?: boolean }).subscribed) {
    throw new Error(`subscribe_guest_push: ${error?.message ?? JSON.stringify(data)}`);
  }
}

/** A staff decision with a reason, as the demo admin. */
export async function staffDecides(
  bookingId: string,
  status: string,
  reason: string | null = null,
): Promise<void> {
  const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const { error } = await admin.rpc('staff_set_booking_status', {
    booking_id: bookingId,
    status,
    reason,
  });
  if (error) throw new Error(`staff_set_booking_status(${status}) refused: ${error.message}`);
}
