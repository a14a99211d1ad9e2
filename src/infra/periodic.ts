import { isBrowserOnline, onBackOnline } from '@/infra/network';

/**
 * The loop every periodic task of the app runs (catalogue sync, my bookings, notifications, the
 * PWA update check): "when visible, when back online, on a timer, back off after a failure, never
 * twice at once", written once. The named long-lived tasks are in src/infra/background.ts.
 */

/** True while the page is visible (or outside a browser). */
export function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

/** Calls `listener(visible)` on every visibility change; returns the unsubscribe function. */
export function onVisibilityChange(listener: (visible: boolean) => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const handler = () => listener(isVisible());
  document.addEventListener('visibilitychange', handler);
  return () => document.removeEventListener('visibilitychange', handler);
}

/** Calls `listener` each time the page becomes visible again. */
export function onForeground(listener: () => void): () => void {
  return onVisibilityChange((visible) => visible && listener());
}

export type PeriodicOptions = {
  /** The work; resolving to `{ ok: false }` (or rejecting) counts as a failure. */
  run: () => Promise<unknown>;
  /** Period of the timer while the app is visible. */
  intervalMs?: number;
  /**
   * First retry delay after a failure (doubles each time, capped at `intervalMs`); null: no
   * retry before the next tick.
   */
  retryMs?: number | null;
  /** A visibility change within this delay after the last run does not trigger another one. */
  minGapMs?: number;
  /**
   * When the first run starts: at once, once the browser is idle (after the first screen has
   * rendered from the device, so the task's code does not compete with it), or at the first
   * trigger (visible again, back online, the timer).
   */
  firstRun?: 'now' | 'idle' | 'later';
  /**
   * Also run when the window gets the focus (a desktop window brought to the front is often
   * visible all along), within `minGapMs` of the last run no more than on a visibility change.
   */
  focus?: boolean;
  /** Whether a run may start now (default: the browser says it is online). */
  online?: () => boolean;
  now?: () => number;
};

export type PeriodicTask = {
  /** Runs now (joining a run under way); resolves when it has settled. */
  refresh: () => Promise<void>;
  stop: () => void;
};

export const DEFAULT_INTERVAL_MS = 5 * 60 * 1000;
export const DEFAULT_RETRY_MS = 15 * 1000;
export const DEFAULT_MIN_GAP_MS = 30 * 1000;
const FIRST_RUN_IDLE_TIMEOUT_MS = 2_000;

const failed = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === false;

/**
 * Runs a task on start, when the network comes back, when the app becomes visible again, and on
 * a timer while it is visible. A failed run is retried sooner (`retryMs`, doubling up to the
 * timer's period), which is also how a device that says it is online but cannot reach the server
 * (captive portal, dead access point) finds its way back. With no network nothing is attempted:
 * the `online` event triggers the next run. Overlapping triggers join the run under way.
 */
export function startPeriodic(options: PeriodicOptions): PeriodicTask {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const retryMs = options.retryMs === undefined ? DEFAULT_RETRY_MS : options.retryMs;
  const minGapMs = options.minGapMs ?? DEFAULT_MIN_GAP_MS;
  const online = options.online ?? isBrowserOnline;
  const now = options.now ?? Date.now;
  let lastRun = -Infinity;
  let failures = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let inFlight: Promise<void> | null = null;
  let stopped = false;

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
    if (!isVisible() || retryMs == null) return;
    retry = setTimeout(trigger, Math.min(retryMs * 2 ** (failures - 1), intervalMs));
  }

  function trigger(): Promise<void> {
    if (stopped || !online()) return Promise.resolve();
    if (inFlight) return inFlight;
    lastRun = now();
    clearRetry();
    let result: Promise<unknown>;
    try {
      result = options.run();
    } catch (error) {
      result = Promise.reject(error);
    }
    inFlight = result
      .then(
        (result) => settle(!failed(result)),
        (error: unknown) => {
          console.error('[background] run failed', error);
          settle(false);
        },
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
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

  const offBackOnline = onBackOnline(trigger);
  const offVisibility = onVisibilityChange((visible) => {
    if (!visible) return stopTimers();
    if (now() - lastRun >= minGapMs) void trigger();
    startTimer();
  });
  const onFocus = () => {
    if (now() - lastRun >= minGapMs) void trigger();
  };
  const listensToFocus = options.focus === true && typeof window !== 'undefined';
  if (listensToFocus) window.addEventListener('focus', onFocus);
  let cancelFirst = () => {};
  if (options.firstRun === 'idle' && typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => void trigger(), {
      timeout: FIRST_RUN_IDLE_TIMEOUT_MS,
    });
    cancelFirst = () => cancelIdleCallback(handle);
  } else if (options.firstRun !== 'later') {
    void trigger();
  }
  if (isVisible()) startTimer();

  return {
    refresh: trigger,
    stop: () => {
      stopped = true;
      cancelFirst();
      stopTimers();
      offBackOnline();
      offVisibility();
      if (listensToFocus) window.removeEventListener('focus', onFocus);
    },
  };
}
