import { catalogueSync } from '@/sync/catalogue-sync';
import { isOnline, onBackOnline } from '@/sync/network';

/**
 * When to refresh server data: on start, when the network comes back, when the app becomes
 * visible again, and on a timer while it is visible. Offline, nothing is attempted (the next
 * `online` event triggers a run). The task itself must never run twice at once: the catalogue
 * sync joins a running sync, so overlapping triggers cost nothing.
 */
export type SchedulerOptions = {
  run: () => Promise<unknown>;
  /** Period of the timer while the app is visible. */
  intervalMs?: number;
  /** A visibility change within this delay after the last run does not trigger another one. */
  minGapMs?: number;
  now?: () => number;
};

export const DEFAULT_INTERVAL_MS = 5 * 60 * 1000;
export const DEFAULT_MIN_GAP_MS = 30 * 1000;

/** Starts scheduling `run`; returns the function that stops it. */
export function startSyncScheduler(options: SchedulerOptions): () => void {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const minGapMs = options.minGapMs ?? DEFAULT_MIN_GAP_MS;
  const now = options.now ?? Date.now;
  let lastRun = -Infinity;
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';

  function trigger(): void {
    if (stopped || !isOnline()) return;
    lastRun = now();
    options.run().catch((error: unknown) => console.error('[sync-scheduler] run failed', error));
  }

  function startTimer(): void {
    if (timer != null) clearInterval(timer);
    timer = setInterval(trigger, intervalMs);
  }

  function stopTimer(): void {
    if (timer != null) clearInterval(timer);
    timer = null;
  }

  function onVisibilityChange(): void {
    if (!visible()) return stopTimer();
    if (now() - lastRun >= minGapMs) trigger();
    startTimer();
  }

  const offBackOnline = onBackOnline(trigger);
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', onVisibilityChange);
  }
  trigger();
  if (visible()) startTimer();

  return () => {
    stopped = true;
    stopTimer();
    offBackOnline();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', onVisibilityChange);
    }
  };
}

let catalogueScheduler: (() => void) | null = null;

/**
 * Keeps the device's catalogue fresh for as long as the app runs. Idempotent: the app shell and
 * every screen that needs the catalogue may call it.
 */
export function startCatalogueScheduler(): void {
  catalogueScheduler ??= startSyncScheduler({ run: () => catalogueSync.sync() });
}
