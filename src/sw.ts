/// <reference lib="webworker" />
/**
 * Kiraa's service worker (vite-plugin-pwa, injectManifest). One section per concern, each
 * independent of the others; see docs/pwa.md. Data (catalogue, bookings, outbox) lives in
 * IndexedDB, so API responses are never cached here.
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

import { guestClient, supabase } from '@/infra/supabase';
import { OUTBOX_SYNC_TAG } from '@/sync/outbox/entry';
import { backgroundFlush } from '@/sync/outbox/flush';
import { supabaseTransport } from '@/sync/outbox/transport';

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
// offline) gets index.html, and the router takes it from there.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    // Files and the API are not app pages.
    denylist: [/^\/(rest|auth|storage|functions)\/v1\//, /\/[^/]+\.[a-z0-9]+$/i],
  }),
);

// --- 3. Car pictures ---------------------------------------------------------------------------
// Cache first with a bound: the app's own /cars/*.webp pictures and the public `cars` bucket of
// Supabase Storage. Only complete (200) answers are kept; cross-origin pictures therefore need
// CORS (<img crossorigin="anonymous">), which the storage API answers.
const CAR_IMAGES_CACHE = 'kiraa-car-images';
const carImageFile = /^\/cars\/.+\.(?:avif|webp|jpe?g|png|gif|svg)$/i;
const publicCarsBucket = /\/storage\/v1\/(?:object|render\/image)\/public\/cars\//;

registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    ((url.origin === self.location.origin && carImageFile.test(url.pathname)) ||
      publicCarsBucket.test(url.pathname)),
  new CacheFirst({
    cacheName: CAR_IMAGES_CACHE,
    plugins: [
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
      new ExpirationPlugin({
        maxEntries: 150,
        maxAgeSeconds: 30 * 24 * 60 * 60,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

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
