import { isBrowserOnline, onBackOnline } from '@/infra/network';
import { catalogueSync, readCatalogueStatus } from '@/sync/catalogue-sync';

/**
 * When to refresh server data: on start, when the network comes back, when the app becomes
 * visible again, and on a timer while it is visible. A failed run is retried sooner (15 s,
 * doubling up to the timer's period), which is also how a device that says it is online but
 * cannot reach the server (captive portal, dead access point) finds its way back. With no
 * network at all nothing is attempted: the browser's `online` event triggers the next run.
 * The task must not run twice at once itself (the catalogue sync joins a running sync), so
 * overlapping triggers cost nothing.
 */
export type SchedulerOptions = {
  /** The work; resolving to `{ ok: false }` (or rejecting) counts as a failure. */
  run: () => Promise<unknown>;
  /** Period of the timer while the app is visible. */
  intervalMs?: number;
  /** First retry delay after a failure (doubles each time, capped at `intervalMs`). */
  retryMs?: number;
  /** A visibility change within this delay after the last run does not trigger another one. */
  minGapMs?: number;
  /**
   * When the first run starts: at once, or once the browser is idle (after the first screen has
   * rendered from the device, so the sync's code does not compete with it).
   */
  firstRun?: 'now' | 'idle';
  now?: () => number;
};

export const DEFAULT_INTERVAL_MS = 5 * 60 * 1000;
export const DEFAULT_RETRY_MS = 15 * 1000;
export const DEFAULT_MIN_GAP_MS = 30 * 1000;
const FIRST_RUN_IDLE_TIMEOUT_MS = 2_000;

const failed = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === false;

/** Starts scheduling `run`; returns the function that stops it. */
export function startSyncScheduler(options: SchedulerOptions): () => void {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const minGapMs = options.minGapMs ?? DEFAULT_MIN_GAP_MS;
  const now = options.now ?? Date.now;
  let lastRun = -Infinity;
  let failures = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';

  function clearRetry(): void {
    if (retry != null) clearTimeout(retry);
    retry = null;
  }

  function settle(ok: boolean): void {
    if (stopped) return;
    if (ok) {
      failures = 0;
      return;
    }
    failures += 1;
    clearRetry();
    if (!visible()) return;
    retry = setTimeout(trigger, Math.min(retryMs * 2 ** (failures - 1), intervalMs));
  }

  function trigger(): void {
    if (stopped || !isBrowserOnline()) return;
    lastRun = now();
    clearRetry();
    options.run().then(
      (result) => settle(!failed(result)),
      (error: unknown) => {
        console.error('[sync-scheduler] run failed', error);
        settle(false);
      },
    );
  }

  function startTimer(): void {
    if (timer != null) clearInterval(timer);
    timer = setInterval(trigger, intervalMs);
  }

  function stopTimers(): void {
    if (timer != null) clearInterval(timer);
    timer = null;
    clearRetry();
  }

  function onVisibilityChange(): void {
    if (!visible()) return stopTimers();
    if (now() - lastRun >= minGapMs) trigger();
    startTimer();
  }

  const offBackOnline = onBackOnline(trigger);
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', onVisibilityChange);
  }
  let cancelFirst = () => {};
  if (options.firstRun === 'idle' && typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(trigger, { timeout: FIRST_RUN_IDLE_TIMEOUT_MS });
    cancelFirst = () => cancelIdleCallback(handle);
  } else {
    trigger();
  }
  if (visible()) startTimer();

  return () => {
    stopped = true;
    cancelFirst();
    stopTimers();
    offBackOnline();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', onVisibilityChange);
    }
  };
}

let catalogueScheduler: Promise<() => void> | null = null;

/**
 * Keeps the device's catalogue fresh for as long as the app runs. Idempotent: the app shell and
 * every screen that needs the catalogue may call it. A device that has the catalogue already
 * shows it first and syncs once idle; a first visit syncs at once.
 */
export function startCatalogueScheduler(): void {
  catalogueScheduler ??= readCatalogueStatus()
    .then((status) => (status.last_success_at ? ('idle' as const) : ('now' as const)))
    .catch(() => 'now' as const)
    .then((firstRun) => startSyncScheduler({ run: () => catalogueSync.sync(), firstRun }));
}
