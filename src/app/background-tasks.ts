import { whenSignedIn } from '@/infra/session-view';
import { defineTask, keepRunning, startBackground } from '@/infra/background';
import { registerServiceWorker } from '@/infra/pwa';

/**
 * The app's long-lived background tasks (src/infra/background.ts), each loaded on first use:
 * - 'catalogue': the catalogue sync (src/sync/sync-scheduler.ts), every 5 min while visible;
 * - 'outbox': the outbox engine (src/sync/sync-engine.ts: flushes on start, on `online`, when
 *   visible; pulls the user's bookings). A first visit never loads it (supabase-js, zod, XState:
 *   ≈ 100 KB gzip);
 * - 'service-worker': registration and the hourly update check (src/infra/pwa.ts);
 * - 'news' (src/app/news-task.ts): guest bookings' statuses, push renewal, background checks,
 *   the worker's messages. Started for a signed-in user, a device with guest bookings that can
 *   still change, or one that allowed notifications; the booking screens ask for it.
 * My bookings and the notifications refresh while their screens are open (their hooks use
 * `startPeriodic`); the session machine keeps its own retry schedule (src/infra/session.ts).
 */
export function defineBackgroundTasks(): void {
  defineTask('catalogue', () => {
    void import('@/sync/sync-scheduler').then((sync) => sync.startCatalogueScheduler());
  });
  defineTask('outbox', () => {
    void import('@/sync/sync-engine').then((engine) => engine.startSyncEngine());
  });
  defineTask('service-worker', () => void registerServiceWorker());
  defineTask('news', () => {
    void import('@/app/news-task').then((news) => news.startNewsTask());
  });
}

/**
 * Once the first screen has painted: the catalogue stays fresh whatever screen the app was opened
 * on, the service worker registers, and the outbox engine starts when there is work for it
 * (writes waiting, or a signed-in user — now or after signing in on this page). Screens that need
 * a task at once ask for it themselves (`keepRunning`).
 */
export function startBackgroundWork(): void {
  whenSignedIn(() => {
    keepRunning('outbox');
    keepRunning('news');
  });
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    keepRunning('news');
  }
  void import('@/infra/db')
    .then(({ liveGuestBookingCount }) => liveGuestBookingCount())
    .then((live) => live > 0 && keepRunning('news'));
  void import('@/infra/db')
    .then(({ queuedWrites }) => queuedWrites())
    .then((queued) => queued > 0 && keepRunning('outbox'));
  startBackground(['catalogue', 'service-worker']);
}
