import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { isOnline, reportServerReachable } from '@/infra/network';
import { startSyncScheduler } from '@/sync/sync-scheduler';

const catalogue = vi.hoisted(() => ({
  sync: vi.fn(() => Promise.resolve({ ok: true })),
  lastSuccess: null as string | null,
}));
vi.mock('@/sync/catalogue-sync', () => ({
  catalogueSync: { sync: catalogue.sync },
  readCatalogueStatus: () => Promise.resolve({ last_success_at: catalogue.lastSuccess }),
}));

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

const goOffline = () => window.dispatchEvent(new Event('offline'));
const goOnline = () => window.dispatchEvent(new Event('online'));

let stop: (() => void) | null = null;
let run: ReturnType<typeof vi.fn<() => Promise<unknown>>>;

beforeEach(() => {
  vi.useFakeTimers();
  goOnline();
  setVisibility('visible');
  run = vi.fn(() => Promise.resolve());
});

afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

const start = () =>
  (stop = startSyncScheduler({
    run,
    intervalMs: 300_000,
    retryMs: 15_000,
    minGapMs: 30_000,
    now: Date.now,
  }));

describe('sync scheduler', () => {
  it('runs on start, then every interval while visible', () => {
    start();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(299_999);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(600_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('does nothing offline and runs as soon as the network is back', () => {
    goOffline();
    expect(isOnline()).toBe(false);
    start();
    vi.advanceTimersByTime(900_000);
    expect(run).not.toHaveBeenCalled();
    goOnline();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops the timer while hidden and runs again when visible', () => {
    start();
    setVisibility('hidden');
    vi.advanceTimersByTime(3_600_000);
    expect(run).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(300_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('does not run again for a quick hide-and-show', () => {
    start();
    vi.advanceTimersByTime(10_000);
    setVisibility('hidden');
    setVisibility('visible');
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops everything when stopped', () => {
    start();
    stop?.();
    goOffline();
    goOnline();
    setVisibility('visible');
    vi.advanceTimersByTime(3_600_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('survives a throwing run and retries it soon', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    run.mockRejectedValueOnce(new Error('boom'));
    start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith('[sync-scheduler] run failed', expect.any(Error));
    error.mockRestore();
  });

  it('retries failed runs with a doubling delay, even when the browser claims to be online', async () => {
    run.mockResolvedValue({ ok: false, error: 'Failed to fetch' });
    reportServerReachable(false); // what the sync reports when its fetch fails
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(15_000); // +15 s
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(29_999); // +30 s
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(3);
    run.mockResolvedValue({ ok: true });
    await vi.advanceTimersByTimeAsync(60_000); // +60 s
    expect(run).toHaveBeenCalledTimes(4);
    // Success: back to the regular timer.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(run).toHaveBeenCalledTimes(4);
    reportServerReachable(true);
  });

  it('can wait for the browser to be idle before the first run', () => {
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => {
      idle = fn;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    stop = startSyncScheduler({ run, firstRun: 'idle' });
    expect(run).not.toHaveBeenCalled();
    idle!();
    expect(run).toHaveBeenCalledTimes(1);
    stop();
    stop = null;
    vi.unstubAllGlobals();
  });
});

describe('catalogue scheduler', () => {
  it('syncs at once on a first visit, once idle when the catalogue is cached, and only once', async () => {
    vi.useRealTimers();
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => {
      idle = fn;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', vi.fn());

    vi.resetModules();
    const first = await import('@/sync/sync-scheduler');
    first.startCatalogueScheduler();
    first.startCatalogueScheduler();
    await vi.waitFor(() => expect(catalogue.sync).toHaveBeenCalledTimes(1));
    expect(idle).toBeNull();

    catalogue.lastSuccess = '2026-11-22T10:00:00Z';
    vi.resetModules();
    const cached = await import('@/sync/sync-scheduler');
    cached.startCatalogueScheduler();
    await vi.waitFor(() => expect(idle).not.toBeNull());
    expect(catalogue.sync).toHaveBeenCalledTimes(1);
    idle!();
    expect(catalogue.sync).toHaveBeenCalledTimes(2);
    vi.unstubAllGlobals();
  });
});
