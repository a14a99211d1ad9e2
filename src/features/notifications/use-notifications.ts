import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { Notification } from '@/domain/rows';
import { type PeriodicTask, startPeriodic } from '@/infra/periodic';
import { isOnline } from '@/infra/network';

import { NOTIFICATION_POLL_MS } from '@/features/notifications/notification-display';
import {
  readBookingReferences,
  readNotifications,
  refreshNotifications,
} from '@/features/notifications/notifications-api';

/** The user's notifications from Dexie, newest first (undefined while the first read runs). */
export function useNotificationList(userId: string): Notification[] | undefined {
  return useLiveQuery(() => readNotifications(userId), [userId]);
}

export type PollState = {
  /** The last fetch failed (the list shows what Dexie has, or the "try again later" state). */
  failed: boolean;
  /** Fetches now (e.g. when the panel opens). */
  refresh: () => Promise<void>;
};

/**
 * Keeps the user's notifications fresh (docs/product.md §4: refetched every 30 s): at once, then every
 * 30 s while the page is visible and the device online, and again when it comes back online, to
 * the foreground or gets the focus; a push refreshes Dexie at once (src/sw.ts). Offline, the
 * cached list stays on screen.
 */
export function useNotificationPolling(
  userId: string,
  intervalMs = NOTIFICATION_POLL_MS,
): PollState {
  const [failed, setFailed] = useState(false);
  const task = useRef<PeriodicTask | null>(null);

  useEffect(() => {
    const poll = startPeriodic({
      run: () =>
        refreshNotifications(userId)
          .then((ok) => setFailed(!ok))
          .catch((error: unknown) => {
            console.warn('[notifications] refresh failed', error);
            setFailed(true);
          }),
      intervalMs,
      minGapMs: 0,
      retryMs: null,
      // A desktop window brought to the front may have been visible all along.
      focus: true,
      online: isOnline,
    });
    task.current = poll;
    return () => {
      poll.stop();
      task.current = null;
    };
  }, [userId, intervalMs]);

  const refresh = useCallback(() => task.current?.refresh() ?? Promise.resolve(), []);
  return { failed, refresh };
}

/** References of the bookings this device knows, to name them in the notifications. */
export function useBookingReferences(bookingIds: string[]): Map<string, string> | undefined {
  const key = [...new Set(bookingIds)].sort().join(',');
  return useLiveQuery(() => readBookingReferences(key ? key.split(',') : []), [key]);
}
