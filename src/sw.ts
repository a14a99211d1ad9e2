/// <reference lib="webworker" />
/**
 * Kiraa's service worker (vite-plugin-pwa, injectManifest). One section per concern, each
 * independent of the others; see docs/pwa.md. Data (catalogue, bookings, outbox) lives in
 * IndexedDB, so API responses are never cached here.
 */
import { clientsClaim, type RouteHandlerCallback } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

import { defaultLocale, isLocale } from '@/domain/locale';
import { db } from '@/infra/db';
import { setAppBadge } from '@/infra/badge';
import { isCarPicture } from '@/infra/picture-urls';
import { firstScreenPage, shellDocument } from '@/infra/shell-document';
import {
  CACHE_PICTURES_MESSAGE,
  LOCALE_MESSAGE,
  NEWS_CHECK_TAG,
  NEWS_MESSAGE,
  OPEN_MESSAGE,
} from '@/infra/worker-protocol';
import { guestClient, supabase } from '@/infra/supabase';
import {
  applyPushMessage,
  deviceLocale,
  isPushMessage,
  rememberDeviceLocale,
  statusNotificationType,
  unreadCount,
} from '@/sync/news';
import { refreshGuestBookings } from '@/sync/guest-refresh';
import { fetchNotifications } from '@/sync/notifications-sync';
import { OUTBOX_SYNC_TAG } from '@/sync/outbox/entry';
import { backgroundFlush } from '@/sync/outbox/flush';
import { supabaseTransport } from '@/sync/outbox/transport';

import { type NewsItem, systemNotification } from '@/features/notifications/push-notification';

declare const self: ServiceWorkerGlobalScope;

// --- 1. Lifecycle ------------------------------------------------------------------------------
// A new version waits until the user accepts the "update available" prompt (src/infra/pwa.ts sends
// SKIP_WAITING through workbox-window); the first install takes control at once.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

// --- 2. App shell ------------------------------------------------------------------------------
// Every built asset is precached; any navigation (a deep link like /cars/some-car opened
// offline) gets the app's document for that page in the device's language (on /home and /cars
// that page's first screen in that language only, on the others no copy: a fraction of
// index.html's bytes to parse; src/infra/shell-document.ts), and the router takes it from there.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
const indexShell = createHandlerBoundToURL('index.html');
const shells = new Map<string, RouteHandlerCallback>();
function shell(file: string): RouteHandlerCallback {
  let handler = shells.get(file);
  if (!handler) {
    try {
      handler = createHandlerBoundToURL(file);
    } catch {
      // A build without that document: index.html serves it.
      handler = indexShell;
    }
    shells.set(file, handler);
  }
  return handler;
}
// The page says which language the app is in (src/infra/pwa.ts); kept where pushes read it too,
// and in memory while the worker lives: a navigation then reads no database.
let knownLocale: string | undefined;
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; locale?: unknown } | null;
  if (data?.type !== LOCALE_MESSAGE || !isLocale(data.locale)) return;
  knownLocale = data.locale;
  event.waitUntil(rememberDeviceLocale(data.locale));
});
async function navigationLocale(): Promise<string> {
  if (knownLocale) return knownLocale;
  const stored = await deviceLocale().catch(() => defaultLocale);
  // A message may have come while the database answered: it is the newer.
  knownLocale ??= stored;
  return knownLocale;
}
registerRoute(
  new NavigationRoute(
    async (options) => {
      const path = options.url.pathname;
      // Only the first-screen pages have a document per language.
      const locale = firstScreenPage(path) ? await navigationLocale() : defaultLocale;
      return shell(shellDocument(locale, path))(options);
    },
    {
      // Files and the API are not app pages.
      denylist: [/^\/(rest|auth|storage|functions)\/v1\//, /\/[^/]+\.[a-z0-9]+$/i],
    },
  ),
);

// --- 3. Car pictures ---------------------------------------------------------------------------
// Cache first with a bound: the app's own /cars/*.webp pictures and the public `cars` bucket of
// Supabase Storage. Only complete (200) answers are kept; cross-origin pictures therefore need
// CORS (<img crossorigin="anonymous">), which the storage API answers.
const CAR_IMAGES_CACHE = 'kiraa-car-images';

const carPictures = new CacheFirst({
  cacheName: CAR_IMAGES_CACHE,
  plugins: [
    { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
    new ExpirationPlugin({
      maxEntries: 150,
      maxAgeSeconds: 30 * 24 * 60 * 60,
      purgeOnQuotaError: true,
    }),
  ],
});
registerRoute(
  ({ request, url }) => request.method === 'GET' && isCarPicture(url, self.location.origin),
  carPictures,
);

// Pictures the page showed before this worker controlled it (the first visit's cards and
// gallery): the page lists them once the worker takes control (src/infra/pwa.ts), and they are
// fetched again here, as the <img> did (CORS for Storage), into the same cache.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; urls?: unknown } | null;
  if (data?.type !== CACHE_PICTURES_MESSAGE || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .filter((u): u is string => typeof u === 'string')
    .slice(0, 60)
    .map((u) => new URL(u, self.location.origin))
    .filter((url) => isCarPicture(url, self.location.origin));
  event.waitUntil(
    Promise.all(
      urls.map((url) =>
        carPictures
          .handle({
            event,
            request: new Request(url.href, {
              mode: url.origin === self.location.origin ? 'same-origin' : 'cors',
              credentials: 'omit',
            }),
          })
          .catch(() => undefined),
      ),
    ),
  );
});

// --- 4. Large lazy chunks ----------------------------------------------------------------------
// Build chunks left out of the precache for their size (the HEIC decoder, see vite.config.ts)
// are kept after their first use: hashed file names never change content.
registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    /^\/assets\/.+\.js$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'kiraa-lazy-chunks',
    plugins: [
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
      new ExpirationPlugin({ maxEntries: 10, purgeOnQuotaError: true }),
    ],
  }),
);

// --- 5. Background sync of the outbox ----------------------------------------------------------
// The page registers the tag when it queues a write (src/sync/outbox/enqueue.ts); the browser fires it
// when the network is back, even after the app was closed. The flush is the page's own code
// (Dexie + supabase-js with the session from IndexedDB), under the same Web Lock.
self.addEventListener('sync', (event) => {
  const syncEvent = event as ExtendableEvent & { tag?: string };
  if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
  syncEvent.waitUntil(
    backgroundFlush(supabaseTransport(supabase), supabaseTransport(guestClient())),
  );
});

// --- 6. Push: decisions reach the device with the app closed ----------------------------------
// push-send (supabase/functions) encrypts what the bell would say; the worker always shows it
// (browsers revoke subscriptions whose pushes show nothing), in the device's language, one
// notification per booking (`tag`), writes it into Dexie at once and tells the open pages, which
// refresh without waiting for their poll. docs/pwa.md, "Push and background checks".
async function signedInUserId(): Promise<string | null> {
  try {
    const { data } = await supabase.auth.getSession();
    return data.session?.user.id ?? null;
  } catch {
    return null;
  }
}

async function tellPages(message: { type: string; [key: string]: unknown }): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
}

async function showNews(item: NewsItem, locale: string): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const { title, options } = systemNotification(item, locale);
  await self.registration.showNotification(title, options);
}

async function updateBadge(userId: string | null): Promise<void> {
  if (userId) setAppBadge(await unreadCount(userId));
}

self.addEventListener('push', (event) => {
  const pushEvent = event as PushEvent;
  let message: unknown = null;
  try {
    message = pushEvent.data?.json();
  } catch {
    message = null;
  }
  pushEvent.waitUntil(
    (async () => {
      if (!isPushMessage(message)) {
        // Never silent: a push without a readable payload still says something happened.
        await showNews(
          {
            type: 'booking_updated',
            booking_id: null,
            reference: null,
            reason: null,
            reason_code: null,
            notification_id: null,
            url: '/home',
          },
          await deviceLocale(),
        );
        return;
      }
      const userId = await signedInUserId();
      // Signed out on this device since it subscribed: say that something changed, not what.
      const shown =
        message.audience === 'customer' && !userId
          ? { ...message, type: 'booking_updated', reference: null, reason: null, url: '/sign-in' }
          : message;
      await showNews(shown, message.locale);
      await applyPushMessage(message, userId).catch((error: unknown) =>
        console.warn('[sw] push not stored', error),
      );
      await updateBadge(userId);
      await tellPages({ type: NEWS_MESSAGE, message });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  const click = event as NotificationEvent;
  click.notification.close();
  const data = click.notification.data as { url?: string } | null;
  const url = typeof data?.url === 'string' && data.url.startsWith('/') ? data.url : '/home';
  click.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const page = pages.find((p) => new URL(p.url).origin === self.location.origin);
      if (page) {
        // The open app goes to the booking (its router: no reload) and comes to the front.
        page.postMessage({ type: OPEN_MESSAGE, url });
        await page.focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});

// --- 7. Checks where push is missing ------------------------------------------------------------
// Background Sync (`sync`, when the network comes back) and Periodic Background Sync
// (`periodicsync`, an installed app now and then; Chromium only): the same news check as the
// page's, into Dexie, and a system notification for what changed since the last look.
async function checkNews(): Promise<void> {
  const locale = await deviceLocale();
  const userId = await signedInUserId();
  if (userId) {
    const known = new Set(
      (await db.notifications.where('user_id').equals(userId).toArray()).map((n) => n.id),
    );
    if (await fetchNotifications(supabase, userId)) {
      const fresh = (await db.notifications.where('user_id').equals(userId).toArray()).filter(
        (n) => !n.is_read && !known.has(n.id),
      );
      for (const n of fresh.slice(0, 3)) {
        await showNews(
          {
            type: n.type,
            booking_id: n.booking_id,
            reference: n.reference ?? null,
            reason: n.reason ?? null,
            reason_code: n.reason_code ?? null,
            notification_id: n.id,
            url: n.booking_id ? `/mybookings?booking=${n.booking_id}` : '/mybookings',
          },
          locale,
        );
      }
    }
    await updateBadge(userId);
  }
  const guests = await refreshGuestBookings(guestClient());
  for (const { after } of guests.changed.slice(0, 3)) {
    await showNews(
      {
        type: statusNotificationType(after.status),
        booking_id: after.id,
        reference: after.reference,
        reason:
          after.status === 'rejected' || after.status === 'cancelled' ? after.status_reason : null,
        reason_code: null,
        notification_id: null,
        url: `/booking-success?id=${after.id}`,
      },
      locale,
    );
  }
  if (guests.changed.length > 0) await tellPages({ type: NEWS_MESSAGE, message: null });
  if (!guests.ok) throw new Error('news check: the server was not reached');
}

self.addEventListener('sync', (event) => {
  const syncEvent = event as ExtendableEvent & { tag?: string };
  if (syncEvent.tag === NEWS_CHECK_TAG) syncEvent.waitUntil(checkNews());
});
self.addEventListener('periodicsync', (event) => {
  const periodic = event as ExtendableEvent & { tag?: string };
  // A failed periodic check simply waits for the next one.
  if (periodic.tag === NEWS_CHECK_TAG) periodic.waitUntil(checkNews().catch(() => undefined));
});
