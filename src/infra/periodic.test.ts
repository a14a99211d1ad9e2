import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { isOnline, reportServerReachable } from '@/infra/network';
import { startPeriodic } from '@/infra/periodic';

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
  (stop = startPeriodic({
    run,
    intervalMs: 300_000,
    retryMs: 15_000,
    minGapMs: 30_000,
    now: Date.now,
  }).stop);

describe('periodic task', () => {
  it('runs on start, then every interval while visible', async () => {
    start();
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(299_999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('does nothing offline and runs as soon as the network is back', async () => {
    goOffline();
    expect(isOnline()).toBe(false);
    start();
    await vi.advanceTimersByTimeAsync(900_000);
    expect(run).not.toHaveBeenCalled();
    goOnline();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops the timer while hidden and runs again when visible', async () => {
    start();
    setVisibility('hidden');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(run).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('does not run again for a quick hide-and-show', async () => {
    start();
    await vi.advanceTimersByTimeAsync(10_000);
    setVisibility('hidden');
    setVisibility('visible');
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs when the window gets the focus, when asked to and past the minimum gap', async () => {
    stop = startPeriodic({ run, intervalMs: 300_000, minGapMs: 5_000, focus: true }).stop;
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(6_000);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    stop();
    stop = null;
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('ignores the focus unless asked to', async () => {
    start();
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops everything when stopped', async () => {
    start();
    stop?.();
    goOffline();
    goOnline();
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('survives a throwing run and retries it soon', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    run.mockRejectedValueOnce(new Error('boom'));
    start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith('[background] run failed', expect.any(Error));
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

  it('can wait for the browser to be idle before the first run', async () => {
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => {
      idle = fn;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    stop = startPeriodic({ run, firstRun: 'idle' }).stop;
    expect(run).not.toHaveBeenCalled();
    idle!();
    expect(run).toHaveBeenCalledTimes(1);
    stop();
    stop = null;
    vi.unstubAllGlobals();
  });

  it('joins a run under way instead of starting a second one', async () => {
    let finish: () => void = () => {};
    run.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    const task = startPeriodic({ run, firstRun: 'later' });
    stop = task.stop;
    const first = task.refresh();
    const second = task.refresh();
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await Promise.all([first, second]);
    void task.refresh();
    expect(run).toHaveBeenCalledTimes(2);
    finish();
  });

  it('waits for a trigger with firstRun later, and does not retry with retryMs null', async () => {
    run.mockResolvedValue({ ok: false });
    const task = startPeriodic({ run, firstRun: 'later', intervalMs: 30_000, retryMs: null });
    stop = task.stop;
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(29_999); // no retry after the failure
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
