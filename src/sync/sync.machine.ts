/**
 * The sync engine's states (XState v5, id `sync`): idle / flushing / waitingForNetwork / backoff.
 *
 * It flushes on start, when the network comes back (`sync.online`), when the app becomes visible
 * (`sync.visible`), when something is queued (`sync.enqueued`) and on demand (`sync.flush`).
 * A flush that stopped on a transient failure comes back after the delay the outbox computed
 * (the due time of the next entry: 200 ms doubling, capped); a flush that threw backs off the same
 * way on its own count. The flush itself is the `flush` actor, provided from outside.
 */
import { assign, fromPromise, setup } from 'xstate';

import { backoffDelay } from '@/sync/outbox/entry';
import type { FlushResult } from '@/sync/outbox/flush';

export type SyncContext = {
  online: boolean;
  /** Device time at which the next flush is due while in backoff. */
  retryAt: number | null;
  /** Consecutive flushes that ended on a failure. */
  failures: number;
  lastResult: FlushResult | null;
  lastError: string | null;
  /** Device time (ms) of the last flush that sent everything it could. */
  lastSuccessAt: number | null;
  /** Something asked for a flush while one was running: run once more. */
  again: boolean;
};

export type SyncEvent =
  | { type: 'sync.flush' }
  | { type: 'sync.enqueued' }
  | { type: 'sync.visible' }
  | { type: 'sync.online' }
  | { type: 'sync.offline' };

export type SyncInput = { online: boolean };

export const syncMachine = setup({
  types: {
    context: {} as SyncContext,
    events: {} as SyncEvent,
    input: {} as SyncInput,
  },
  actors: {
    flush: fromPromise<FlushResult>(async () => {
      throw new Error('the sync machine needs a `flush` actor');
    }),
  },
  guards: {
    isOnline: ({ context }) => context.online,
    askedAgain: ({ context }) => context.again,
    stoppedOffline: ({ context, event }) => {
      const result = (event as unknown as { output: FlushResult }).output;
      return !context.online && result.stoppedBy?.kind === 'transient';
    },
    needsRetry: ({ event }) => {
      const result = (event as unknown as { output: FlushResult }).output;
      return result.retryAt !== null;
    },
  },
  delays: {
    retryDelay: ({ context }) => Math.max(0, (context.retryAt ?? Date.now()) - Date.now()),
  },
  actions: {
    setOnline: assign({ online: true }),
    setOffline: assign({ online: false }),
    requestAgain: assign({ again: true }),
  },
}).createMachine({
  id: 'sync',
  context: ({ input }) => ({
    online: input.online,
    retryAt: null,
    failures: 0,
    lastResult: null,
    lastError: null,
    lastSuccessAt: null,
    again: false,
  }),
  initial: 'starting',
  on: {
    'sync.online': { actions: 'setOnline' },
    'sync.offline': { actions: 'setOffline' },
  },
  states: {
    starting: {
      always: [{ guard: 'isOnline', target: 'flushing' }, { target: 'waitingForNetwork' }],
    },
    idle: {
      on: {
        'sync.flush': 'check',
        'sync.enqueued': 'check',
        'sync.visible': 'check',
        'sync.online': { target: 'flushing', actions: 'setOnline' },
      },
    },
    check: {
      always: [{ guard: 'isOnline', target: 'flushing' }, { target: 'waitingForNetwork' }],
    },
    flushing: {
      entry: assign({ again: false }),
      invoke: {
        src: 'flush',
        onDone: [
          {
            guard: 'stoppedOffline',
            target: 'waitingForNetwork',
            actions: assign({
              lastResult: ({ event }) => event.output,
              lastError: ({ event }) => event.output.stoppedBy?.code ?? null,
              failures: ({ context }) => context.failures + 1,
            }),
          },
          {
            guard: 'needsRetry',
            target: 'backoff',
            actions: assign({
              lastResult: ({ event }) => event.output,
              retryAt: ({ event }) => event.output.retryAt,
              lastError: ({ event }) => event.output.stoppedBy?.code ?? null,
              failures: ({ context, event }) =>
                event.output.stoppedBy ? context.failures + 1 : context.failures,
              lastSuccessAt: ({ context, event }) =>
                event.output.stoppedBy ? context.lastSuccessAt : Date.now(),
            }),
          },
          {
            target: 'done',
            actions: assign({
              lastResult: ({ event }) => event.output,
              retryAt: null,
              failures: 0,
              lastError: null,
              lastSuccessAt: () => Date.now(),
            }),
          },
        ],
        onError: {
          target: 'backoff',
          actions: assign({
            failures: ({ context }) => context.failures + 1,
            retryAt: ({ context }) => Date.now() + backoffDelay(context.failures + 1),
            lastError: ({ event }) => String(event.error),
          }),
        },
      },
      on: {
        'sync.flush': { actions: 'requestAgain' },
        'sync.enqueued': { actions: 'requestAgain' },
        'sync.visible': { actions: 'requestAgain' },
        'sync.online': { actions: ['setOnline', 'requestAgain'] },
      },
    },
    /** A flush ended with nothing to retry: run once more if asked meanwhile, else rest. */
    done: {
      always: [{ guard: 'askedAgain', target: 'check' }, { target: 'idle' }],
    },
    backoff: {
      after: { retryDelay: 'check' },
      on: {
        'sync.flush': 'check',
        'sync.online': { target: 'flushing', actions: 'setOnline' },
        'sync.offline': { target: 'waitingForNetwork', actions: 'setOffline' },
      },
    },
    waitingForNetwork: {
      on: {
        'sync.online': { target: 'flushing', actions: 'setOnline' },
        'sync.flush': { guard: 'isOnline', target: 'flushing' },
        'sync.visible': { guard: 'isOnline', target: 'flushing' },
        'sync.enqueued': { guard: 'isOnline', target: 'flushing' },
      },
    },
  },
});

/** The four states the UI names (transient ones read as the state they pass through). */
export type SyncPhase = 'idle' | 'flushing' | 'waitingForNetwork' | 'backoff';

export function phaseOf(value: unknown): SyncPhase {
  if (value === 'flushing' || value === 'waitingForNetwork' || value === 'backoff') return value;
  return 'idle';
}

/**
 * Whether a change of the session calls for a flush: a user signed in here (their queued entries
 * can go), or the session was refreshed while the engine rests after a flush that had to hold
 * entries (it could not read a usable session then, e.g. a token that expired offline), so they
 * do not wait for the next `online` or visibility change. A refresh never cuts a backoff short.
 */
export function flushOnSessionChange(
  previousUserId: string | null,
  userId: string | null,
  engine: { resting: boolean; lastResult: FlushResult | null },
): boolean {
  if (!userId) return false;
  if (userId !== previousUserId) return true;
  return engine.resting && (engine.lastResult?.held ?? 0) > 0;
}
