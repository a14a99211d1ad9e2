import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';

import type { FlushResult } from '@/sync/outbox/flush';
import { flushOnSessionChange, phaseOf, syncMachine } from '@/sync/sync.machine';

const ok: FlushResult = {
  sent: 1,
  parked: 0,
  deferred: 0,
  remaining: 0,
  held: 0,
  retryAt: null,
  stoppedBy: null,
};

function transient(retryInMs: number, code = 'http_503'): FlushResult {
  return {
    sent: 0,
    parked: 0,
    deferred: 0,
    remaining: 1,
    held: 0,
    retryAt: Date.now() + retryInMs,
    stoppedBy: { kind: 'transient', code },
  };
}

/** A flush actor whose answers the test scripts; each call is recorded. */
function scripted(answers: (FlushResult | Error | (() => FlushResult))[]) {
  const calls: number[] = [];
  const actor = fromPromise<FlushResult>(async () => {
    await Promise.resolve();
    calls.push(Date.now());
    const next = answers.shift() ?? ok;
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  });
  return { actor, calls };
}

function start(answers: Parameters<typeof scripted>[0], online = true) {
  const { actor, calls } = scripted(answers);
  const sync = createActor(syncMachine.provide({ actors: { flush: actor } }), {
    input: { online },
  });
  sync.start();
  return { sync, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('sync machine', () => {
  it('flushes on start when online, then rests idle with the time of success', async () => {
    const { sync, calls } = start([ok]);
    expect(sync.getSnapshot().value).toBe('flushing');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(sync.getSnapshot().value).toBe('idle');
    expect(sync.getSnapshot().context).toMatchObject({
      lastSuccessAt: Date.now(),
      failures: 0,
      lastError: null,
    });
  });

  it('waits for the network when started offline, and flushes on sync.online', async () => {
    const { sync, calls } = start([ok], false);
    expect(sync.getSnapshot().value).toBe('waitingForNetwork');
    sync.send({ type: 'sync.enqueued' });
    sync.send({ type: 'sync.visible' });
    sync.send({ type: 'sync.flush' });
    expect(sync.getSnapshot().value).toBe('waitingForNetwork');
    expect(calls).toHaveLength(0);
    sync.send({ type: 'sync.online' });
    expect(sync.getSnapshot().value).toBe('flushing');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
  });

  it.each(['sync.flush', 'sync.enqueued', 'sync.visible', 'sync.online'] as const)(
    'flushes from idle on %s',
    async (type) => {
      const { sync, calls } = start([ok, ok]);
      await vi.advanceTimersByTimeAsync(0);
      expect(sync.getSnapshot().value).toBe('idle');
      sync.send({ type });
      expect(sync.getSnapshot().value).toBe('flushing');
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(2);
    },
  );

  it('goes to waitingForNetwork from idle when a flush is asked offline', async () => {
    const { sync } = start([ok]);
    await vi.advanceTimersByTimeAsync(0);
    sync.send({ type: 'sync.offline' });
    expect(sync.getSnapshot().value).toBe('idle');
    sync.send({ type: 'sync.enqueued' });
    expect(sync.getSnapshot().value).toBe('waitingForNetwork');
  });

  it('backs off as long as the outbox says, 200 ms then doubling', async () => {
    const { sync, calls } = start([
      () => transient(200),
      () => transient(400),
      () => transient(800),
      ok,
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    expect(sync.getSnapshot().context).toMatchObject({ failures: 1, lastError: 'http_503' });

    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(sync.getSnapshot().context.failures).toBe(3);
    await vi.advanceTimersByTimeAsync(800);
    expect(calls).toHaveLength(4);
    expect(calls.map((t) => t - calls[0]!)).toEqual([0, 200, 600, 1400]);
    expect(sync.getSnapshot().value).toBe('idle');
    expect(sync.getSnapshot().context.failures).toBe(0);
  });

  it('backs off on its own count when the flush throws', async () => {
    const { sync, calls } = start([new Error('IndexedDB closed'), new Error('again'), ok]);
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    expect(sync.getSnapshot().context.lastError).toContain('IndexedDB closed');
    await vi.advanceTimersByTimeAsync(200);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(sync.getSnapshot().value).toBe('idle');
  });

  it('retries at once from backoff on a manual flush or when the network returns', async () => {
    const { sync, calls } = start([() => transient(60_000), () => transient(60_000), ok]);
    await vi.advanceTimersByTimeAsync(0);
    sync.send({ type: 'sync.flush' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(sync.getSnapshot().value).toBe('backoff');
    sync.send({ type: 'sync.online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    expect(sync.getSnapshot().value).toBe('idle');
  });

  it('leaves backoff for waitingForNetwork when the device goes offline', async () => {
    const { sync, calls } = start([() => transient(1000), ok]);
    await vi.advanceTimersByTimeAsync(0);
    sync.send({ type: 'sync.offline' });
    expect(sync.getSnapshot().value).toBe('waitingForNetwork');
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
    sync.send({ type: 'sync.online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
  });

  it('waits for the network when a flush failed while offline', async () => {
    const { sync } = start([
      () => {
        sync.send({ type: 'sync.offline' });
        return transient(200, 'network');
      },
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('waitingForNetwork');
    expect(sync.getSnapshot().context.lastError).toBe('network');
  });

  it('runs once more when asked during a flush', async () => {
    const { sync, calls } = start([
      () => {
        sync.send({ type: 'sync.enqueued' });
        return ok;
      },
      ok,
    ]);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(sync.getSnapshot().value).toBe('idle');
  });

  it('names its phases for the UI', () => {
    expect(phaseOf('flushing')).toBe('flushing');
    expect(phaseOf('check')).toBe('idle');
    expect(phaseOf('backoff')).toBe('backoff');
    expect(phaseOf('waitingForNetwork')).toBe('waitingForNetwork');
  });
});

describe('flushOnSessionChange', () => {
  const resting = { resting: true, lastResult: ok };
  const held = { ...ok, sent: 0, held: 1, remaining: 1 };

  it('flushes when a user signs in or switches, not when the session ends', () => {
    expect(flushOnSessionChange(null, 'u1', { resting: true, lastResult: null })).toBe(true);
    expect(flushOnSessionChange('u1', 'u2', resting)).toBe(true);
    expect(flushOnSessionChange('u1', 'u2', { resting: false, lastResult: held })).toBe(true);
    expect(flushOnSessionChange('u1', null, { resting: true, lastResult: held })).toBe(false);
  });

  it('flushes on a refreshed session only at rest after a flush that held entries back', () => {
    expect(flushOnSessionChange('u1', 'u1', resting)).toBe(false);
    expect(flushOnSessionChange('u1', 'u1', { resting: true, lastResult: null })).toBe(false);
    expect(flushOnSessionChange('u1', 'u1', { resting: true, lastResult: held })).toBe(true);
    // Backing off (or flushing): the refresh does not cut the wait short.
    expect(flushOnSessionChange('u1', 'u1', { resting: false, lastResult: held })).toBe(false);
  });
});
