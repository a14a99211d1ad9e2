/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';

import { supabase } from '@/lib/supabase';
import { backgroundFlush, OUTBOX_SYNC_TAG, supabaseTransport } from '@/sync/outbox';

declare const self: ServiceWorkerGlobalScope;

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Background sync of the outbox (src/sync/outbox.ts): the page registers the tag when it queues
// something; the browser fires it when the network is back, even after the app was closed.
self.addEventListener('sync', (event) => {
  const syncEvent = event as ExtendableEvent & { tag?: string };
  if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
  syncEvent.waitUntil(backgroundFlush(supabaseTransport(supabase)));
});
