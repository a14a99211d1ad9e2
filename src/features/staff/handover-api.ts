/**
 * The pickup and return records' calls for staff (docs/handovers.md): the records from the server
 * (src/sync/handovers-sync.ts), and those waiting in this phone's outbox (src/sync/outbox/handover.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';

import { fetchStaffHandovers, type HandoversResult } from '@/sync/handovers-sync';
import {
  discardQueuedHandover,
  queuedPhotoBlob,
  queueHandover,
  readQueuedHandovers,
  type HandoverDraft,
  type HandoverPhotoInput,
  type QueuedHandover,
} from '@/sync/outbox/handover';
import { requestFlush } from '@/sync/sync-engine';

export {
  discardQueuedHandover,
  queueHandover,
  requestFlush,
  type HandoverDraft,
  type HandoverPhotoInput,
};

export function loadHandovers(bookingId: string): Promise<HandoversResult> {
  return fetchStaffHandovers(bookingId);
}

/** The records of a booking still waiting in this phone's outbox, live. */
export function useQueuedHandovers(bookingId: string): QueuedHandover[] | undefined {
  return useLiveQuery(() => readQueuedHandovers(bookingId), [bookingId]);
}

/** Local URLs of the queued photos (Blobs in IndexedDB), revoked when the list changes. */
export function useQueuedPhotoLinks(queued: QueuedHandover[] | undefined): Record<string, string> {
  const [links, setLinks] = useState<Record<string, string>>({});
  const key = (queued ?? []).map((q) => q.payload.photos.map((p) => p.path).join()).join('|');
  useEffect(() => {
    let cancelled = false;
    const made: string[] = [];
    void (async () => {
      const next: Record<string, string> = {};
      for (const q of queued ?? []) {
        for (const photo of q.payload.photos) {
          const blob = await queuedPhotoBlob(photo.path);
          if (!blob) continue;
          next[photo.path] = URL.createObjectURL(blob);
          made.push(next[photo.path]!);
        }
      }
      if (!cancelled) setLinks(next);
    })();
    return () => {
      cancelled = true;
      for (const url of made) URL.revokeObjectURL(url);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the photos' paths are the key
  }, [key]);
  return links;
}
