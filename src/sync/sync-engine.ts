/**
 * The running sync engine of the page: the `sync` machine wired to the outbox, the network, the
 * page's visibility, the session and the service worker's background sync.
 *
 * - flushes on start, on `online`, when the app becomes visible, when something is queued, and
 *   on demand (`requestFlush`); the service worker flushes with the same code (src/sw.ts) when
 *   the browser fires a background sync, and a Web Lock keeps the two from flushing together;
 * - flushes again when a user signs in, and when the session is refreshed after a flush that had
 *   to hold entries (flushOnSessionChange);
 * - after a flush, and when a user signs in, pulls the user's bookings (bookings-sync.ts).
 */
import { createActor, fromPromise, type Actor } from 'xstate';

import { onForeground } from '@/infra/periodic';
import { isOnline, subscribeOnline } from '@/infra/network';
import { getSessionState, subscribeSession } from '@/infra/session';
import { guestClient, supabase } from '@/infra/supabase';
import { pullMyBookings } from '@/sync/bookings-sync';
import { onEnqueued } from '@/sync/outbox/enqueue';
import { flushOutbox, withOutboxLock, type FlushResult } from '@/sync/outbox/flush';
import { supabaseTransport, type OutboxTransport } from '@/sync/outbox/transport';
import { flushOnSessionChange, phaseOf, syncMachine, type SyncPhase } from '@/sync/sync.machine';

export type SyncEngineState = {
  phase: SyncPhase;
  online: boolean;
  /** When the next retry is due, while backing off. */
  retryAt: number | null;
  lastError: string | null;
  failures: number;
  lastResult: FlushResult | null;
};

/** The page's one engine; it lives as long as the page. */
let engine: Actor<typeof syncMachine> | null = null;

async function pullAfterFlush(): Promise<void> {
  const { user } = getSessionState();
  if (!isOnline() || !user) return;
  await pullMyBookings(supabase, user.id).catch((error: unknown) =>
    console.warn('[sync] bookings not pulled', error),
  );
}

/** Flushes the outbox once, holding the outbox lock. */
export function flushWithLock(
  transport: OutboxTransport,
  guestTransport: OutboxTransport,
): Promise<FlushResult> {
  return withOutboxLock(() => flushOutbox({ transport, guestTransport }));
}

/** Starts the engine once for this page (later calls return the running one). */
export function startSyncEngine(): Actor<typeof syncMachine> {
  if (engine) return engine;
  const transport = supabaseTransport(supabase);
  const guestTransport = supabaseTransport(guestClient());
  const actor = createActor(
    syncMachine.provide({
      actors: {
        flush: fromPromise(async () => {
          const result = await flushWithLock(transport, guestTransport);
          if (!result.stoppedBy) await pullAfterFlush();
          return result;
        }),
      },
    }),
    { input: { online: isOnline() } },
  );

  subscribeOnline(() => actor.send({ type: isOnline() ? 'sync.online' : 'sync.offline' }));
  onEnqueued(() => actor.send({ type: 'sync.enqueued' }));
  onForeground(() => actor.send({ type: 'sync.visible' }));
  let lastUser = getSessionState().user?.id ?? null;
  subscribeSession((state) => {
    const id = state.user?.id ?? null;
    const snapshot = actor.getSnapshot();
    const flush = flushOnSessionChange(lastUser, id, {
      resting: snapshot.matches('idle'),
      lastResult: snapshot.context.lastResult,
    });
    lastUser = id;
    if (flush) actor.send({ type: 'sync.flush' });
  });

  actor.start();
  engine = actor;
  return actor;
}

/** Asks for a flush now (the sync panel's "sync now", a fixed booking). */
export function requestFlush(): void {
  startSyncEngine().send({ type: 'sync.flush' });
}

function stateOf(actor: Actor<typeof syncMachine>): SyncEngineState {
  const snapshot = actor.getSnapshot();
  const c = snapshot.context;
  return {
    phase: phaseOf(snapshot.value),
    online: c.online,
    retryAt: snapshot.value === 'backoff' ? c.retryAt : null,
    lastError: c.lastError,
    failures: c.failures,
    lastResult: c.lastResult,
  };
}

/** The engine's state for the UI; `listener` is called on every change. */
export function subscribeSyncEngine(listener: (state: SyncEngineState) => void): () => void {
  const actor = startSyncEngine();
  listener(stateOf(actor));
  const subscription = actor.subscribe(() => listener(stateOf(actor)));
  return () => subscription.unsubscribe();
}
