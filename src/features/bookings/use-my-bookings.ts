import { useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { type PeriodicTask, startPeriodic } from '@/infra/periodic';
import type { OutboxEntry } from '@/infra/db';
import { isOnline, useOnline } from '@/infra/network';
import { cancelRefusedMessage, cancelRefusedWithReason } from '@/features/bookings/labels';
import { showToast } from '@/infra/toast';
import { refreshMyBookings } from '@/sync/my-bookings-sync';

import type { BookingEntries } from '@/features/bookings/booking-lists';
import {
  type MyBookingsData,
  readLastRefresh,
  readMyBookingsData,
  readNewestNotificationAt,
} from '@/features/bookings/bookings-api';

/** How often the list is refreshed while the page is open (the notifications' rhythm). */
export const REFRESH_MS = 30_000;

/** Everything /mybookings shows, live from IndexedDB (undefined while it is read). */
export function useMyBookingsData(userId: string): MyBookingsData | undefined {
  return useLiveQuery(() => readMyBookingsData(userId), [userId]);
}

/** When the bookings were last brought from the server (ISO), or null. */
export function useLastRefresh(): string | null | undefined {
  return useLiveQuery(readLastRefresh, []);
}

/**
 * Keeps the list fresh from the server: at once, every 30 s while visible, when the device
 * comes back online, and when a new notification arrives for the user (a staff decision).
 */
export function useBookingsRefresh(userId: string): {
  refreshing: boolean;
  failed: boolean;
  refresh: () => Promise<void>;
} {
  const online = useOnline();
  const [refreshing, setRefreshing] = useState(false);
  const [failed, setFailed] = useState(false);
  const task = useRef<PeriodicTask | null>(null);

  useEffect(() => {
    const poll = startPeriodic({
      run: async () => {
        setRefreshing(true);
        try {
          setFailed(!(await refreshMyBookings(userId)));
        } finally {
          setRefreshing(false);
        }
      },
      intervalMs: REFRESH_MS,
      minGapMs: 0,
      retryMs: null,
      online: isOnline,
    });
    task.current = poll;
    return () => {
      poll.stop();
      task.current = null;
    };
  }, [userId]);

  // The "refresh" button (disabled offline) joins a refresh under way.
  const refresh = useCallback(() => task.current?.refresh() ?? Promise.resolve(), []);

  // A new notification (the bell polls them) means a booking changed on the server.
  const newest = useLiveQuery(() => readNewestNotificationAt(userId), [userId]);
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (newest === undefined) return;
    if (seen.current !== undefined && newest !== seen.current && online) void refresh();
    seen.current = newest;
  }, [newest, online, refresh]);

  return { refreshing, failed, refresh };
}

/**
 * Says so when the server refuses a cancellation or a review that was queued while this page is
 * open (docs/product.md §8: 'Error cancelling booking' / 'Error submitting review', with the reason).
 */
export function useRefusalToasts(entries: Map<string, BookingEntries> | undefined): void {
  const { t, i18n } = useLingui();
  const known = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!entries) return;
    const parked: OutboxEntry[] = [];
    for (const slot of entries.values()) {
      for (const entry of [slot.cancel, slot.review]) {
        if (entry?.state === 'parked') parked.push(entry);
      }
    }
    // Refusals that were there when the page opened are shown on their cards, not toasted.
    if (known.current === null) {
      known.current = new Set(parked.map((e) => e.id));
      return;
    }
    for (const entry of parked) {
      if (known.current.has(entry.id)) continue;
      known.current.add(entry.id);
      const reason = i18n._(bookingErrorMessage(entry.last_error));
      showToast(
        entry.kind === 'cancel_booking'
          ? i18n._(
              entry.last_error === 'invalid_status_transition' ||
                entry.last_error === 'booking_expired' ||
                !entry.last_error
                ? cancelRefusedMessage
                : cancelRefusedWithReason(reason),
            )
          : t`Erreur lors de l’envoi de l’avis : ${reason}`,
        { kind: 'error', id: `refused-${entry.id}` },
      );
    }
  }, [entries, t, i18n]);
}
