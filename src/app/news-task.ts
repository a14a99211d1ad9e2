/**
 * The background task 'news' (src/app/background-tasks.ts): the page's share of getting staff
 * decisions to the traveller (docs/offline-sync.md, "News: push and checks").
 * - The guest bookings stored here refresh in one call (src/sync/news.ts) when the app opens,
 *   comes back online, gets the focus or becomes visible, and every 30 s while visible (the
 *   bell's pace, docs/product.md §9); the signed-in user's notifications have the bell's own poll.
 * - A push (the worker's message) refreshes them at once: no poll needed.
 * - With permission granted, the push subscription is renewed (browsers drop them silently) and
 *   an installed app asks for a periodic check; going offline asks the worker to check when the
 *   network is back (Background Sync). All feature-detected: without them the triggers above are
 *   what is left, and nothing promises more.
 */
import { getShellSession } from '@/infra/session-view';
import { currentLocale } from '@/infra/i18n';
import { isOnline } from '@/infra/network';
import { startPeriodic } from '@/infra/periodic';
import { setAppBadge } from '@/infra/badge';
import {
  currentPushKeys,
  registerPeriodicNewsCheck,
  requestNewsCheckOnReconnect,
} from '@/infra/push';
import { NEWS_MESSAGE } from '@/infra/worker-protocol';
import { checkGuestBookings } from '@/sync/guest-refresh';
import { rememberDeviceLocale, renewThisDevice } from '@/sync/news';

import { NOTIFICATION_POLL_MS } from '@/features/notifications/notification-display';
import { refreshNotifications } from '@/features/notifications/notifications-api';

let started = false;

function signedInUserId(): string | null {
  const session = getShellSession();
  return session.status === 'signedIn' ? (session.user?.id ?? null) : null;
}

/** Renews this device's push subscription and asks for the background checks it can have. */
export async function renewPush(): Promise<void> {
  const locale = currentLocale();
  await rememberDeviceLocale(locale);
  void registerPeriodicNewsCheck();
  const keys = await currentPushKeys();
  if (keys) await renewThisDevice(signedInUserId(), keys, locale);
}

export function startNewsTask(): void {
  if (started) return;
  started = true;
  const task = startPeriodic({
    run: checkGuestBookings,
    intervalMs: NOTIFICATION_POLL_MS,
    minGapMs: 5_000,
    retryMs: null,
    focus: true,
    online: isOnline,
  });

  if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type !== NEWS_MESSAGE) return;
      void task.refresh();
      const userId = signedInUserId();
      if (userId) void refreshNotifications(userId);
    });
  }
  // Offline now: the worker checks as soon as the network is back, even with the app closed.
  window.addEventListener('offline', () => void requestNewsCheckOnReconnect());
  if (!signedInUserId()) setAppBadge(0);
  void renewPush().catch((error: unknown) => console.warn('[news] push not renewed', error));
}
