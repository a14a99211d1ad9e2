/**
 * Sending the outbox: what is due, in order, once per flush, under a Web Lock shared by the
 * page, other tabs and the service worker. The caller (the sync machine, the service worker)
 * decides when to flush again.
 */
import { db, type OutboxEntry, type OutboxKind } from '@/infra/db';
import { setBookingState } from '@/sync/outbox/booking-state';
import {
  backoffDelay,
  entryBookingId,
  LAST_SYNC_KEY,
  OUTBOX_LOCK,
  type OutboxPayloads,
} from '@/sync/outbox/entry';
import { DEFERRED_RETRY_MS, limitCodes, type Failure, type Outcome } from '@/sync/outbox/errors';
import { sendCancel } from '@/sync/outbox/senders/cancel-booking';
import { reportRefusal, sendCreate } from '@/sync/outbox/senders/create-booking';
import { sendMarkRead } from '@/sync/outbox/senders/mark-notification-read';
import { sendHandover } from '@/sync/outbox/senders/record-handover';
import { sendReview } from '@/sync/outbox/senders/submit-review';
import { sendUpload } from '@/sync/outbox/senders/upload-file';
import type { OutboxTransport } from '@/sync/outbox/transport';

export type FlushResult = {
  /** Entries the server accepted during this flush. */
  sent: number;
  /** Entries parked during this flush. */
  parked: number;
  /** Entries that met a server limit during this flush: they wait for its time, the rest goes. */
  deferred: number;
  /** Entries left (pending or parked). */
  remaining: number;
  /** Pending entries of a user who is not signed in here: they wait until that user is. */
  held: number;
  /** When the next pending entry may be tried (null: nothing pending). */
  retryAt: number | null;
  /** Why the flush stopped early, if it did. */
  stoppedBy: Failure | null;
};

/** One sender per kind (senders/). */
const senders: {
  [K in OutboxKind]: (t: OutboxTransport, payload: OutboxPayloads[K]) => Promise<Outcome>;
} = {
  upload_file: sendUpload,
  create_booking: sendCreate,
  cancel_booking: sendCancel,
  submit_review: sendReview,
  mark_notification_read: sendMarkRead,
  record_handover: sendHandover,
};

function send(t: OutboxTransport, entry: OutboxEntry): Promise<Outcome> {
  const sender = senders[entry.kind] as (t: OutboxTransport, payload: unknown) => Promise<Outcome>;
  return sender(t, entry.payload);
}

async function park(entry: OutboxEntry, code: string): Promise<number> {
  let count = 0;
  const queue = [{ entry, code }];
  while (queue.length > 0) {
    const next = queue.shift()!;
    await db.outbox.update(next.entry.id, { state: 'parked', last_error: next.code });
    count += 1;
    const bookingId = entryBookingId(next.entry);
    if (bookingId && (next.entry.kind === 'create_booking' || next.entry.kind === 'upload_file')) {
      await setBookingState(bookingId, {
        status: 'sync_failed',
        sync_state: 'needs_attention',
        sync_error: next.code,
      });
    }
    const dependants = (await db.outbox.toArray()).filter(
      (e) => e.depends_on.includes(next.entry.id) && e.state !== 'parked',
    );
    // A dependant carries the root cause (e.g. a booking parked because its licence was refused).
    for (const d of dependants) queue.push({ entry: d, code: next.code });
  }
  return count;
}

/**
 * Refusals the server has not heard of yet (the report got no answer): reported again, so the
 * person is told. The server may answer that it created the booking after all, or that it would
 * take it now (then it is queued again).
 */
async function reportPendingRefusals(
  senderOf: (e: OutboxEntry) => OutboxTransport | null,
  result: FlushResult,
  parkedNow: ReadonlySet<string>,
): Promise<void> {
  const parked = await db.outbox.where('state').equals('parked').toArray();
  for (const entry of parked) {
    if (entry.kind !== 'create_booking' || parkedNow.has(entry.id)) continue;
    const sender = senderOf(entry);
    const payload = entry.payload as OutboxPayloads['create_booking'];
    const booking = await db.bookings.get(payload.id);
    if (!sender || booking?.refusal_report !== 'pending') continue;
    const outcome = await reportRefusal(sender, payload, entry.last_error ?? 'unknown');
    if (outcome.ok) {
      await db.outbox.delete(entry.id);
      result.sent += 1;
    } else if (outcome.failure.kind !== 'permanent') {
      await db.outbox.update(entry.id, { state: 'pending', attempts: 0, last_error: null });
    } else if ((await db.bookings.get(payload.id))?.refusal_report === 'pending') {
      break; // still no answer: the next flush tries again
    } else {
      await setBookingState(payload.id, { status: 'sync_failed', sync_state: 'needs_attention' });
    }
  }
}

export type FlushOptions = {
  /** Sends the signed-in user's entries (and all entries when nobody is signed in). */
  transport: OutboxTransport;
  /**
   * Sends guests' bookings with the anon key only, so that a guest booking never becomes the
   * account's of whoever signed in since. Without it, guests' entries wait while someone is
   * signed in.
   */
  guestTransport?: OutboxTransport;
  now?: () => number;
  /** Stop before starting another entry when this says so (e.g. the page is closing). */
  shouldStop?: () => boolean;
};

/**
 * Sends what is due, in order, once. Never throws for a server answer: it returns what happened,
 * and the caller (the sync machine, the service worker) decides when to try again.
 */
export async function flushOutbox({
  transport,
  guestTransport,
  now = Date.now,
  shouldStop,
}: FlushOptions): Promise<FlushResult> {
  const result: FlushResult = {
    sent: 0,
    parked: 0,
    deferred: 0,
    remaining: 0,
    held: 0,
    retryAt: null,
    stoppedBy: null,
  };
  const me = await transport.userId();
  const guest = guestTransport ?? (me === null ? transport : null);
  /** Who sends an entry now; null: its owner is not signed in here, it waits for them. */
  const senderOf = (e: OutboxEntry): OutboxTransport | null => {
    if (e.owner === undefined) return transport;
    if (e.owner === null) return guest;
    return e.owner === me ? transport : null;
  };
  // A flush that died mid-way (page closed) left entries "sending": they are pending again.
  await db.outbox.where('state').equals('sending').modify({ state: 'pending' });
  let refreshed = false;
  /** Entries parked by this flush: their refusal was reported (or tried) just now. */
  const parkedNow = new Set<string>();

  for (;;) {
    if (shouldStop?.()) break;
    const entries = await db.outbox.orderBy('seq').toArray();
    const present = new Map(entries.map((e) => [e.id, e]));
    // Whatever depends on a parked entry is parked with it: it can never be sent as it is.
    const blocked = entries.find(
      (e) => e.state === 'pending' && e.depends_on.some((d) => present.get(d)?.state === 'parked'),
    );
    if (blocked) {
      const cause = blocked.depends_on
        .map((d) => present.get(d))
        .find((d) => d?.state === 'parked');
      result.parked += await park(blocked, cause?.last_error ?? 'dependency_failed');
      continue;
    }
    // An entry waiting out a server limit lets the others go before it.
    const waiting = (e: OutboxEntry) =>
      e.next_attempt_at > now() && limitCodes.has(e.last_error ?? '');
    const next = entries.find(
      (e) =>
        e.state === 'pending' &&
        e.depends_on.every((d) => !present.has(d)) &&
        senderOf(e) !== null &&
        !waiting(e),
    );
    if (!next) break;
    const sender = senderOf(next)!;
    if (next.next_attempt_at > now()) {
      result.retryAt = next.next_attempt_at;
      break;
    }

    await db.outbox.update(next.id, { state: 'sending' });
    let outcome: Outcome;
    try {
      outcome = await send(sender, next);
      if (!outcome.ok && outcome.failure.kind === 'auth' && !refreshed) {
        refreshed = true;
        if (await sender.refreshSession()) outcome = await send(sender, next);
      }
    } catch (error) {
      outcome = { ok: false, failure: { kind: 'transient', code: String(error) } };
    }

    if (outcome.ok) {
      await db.outbox.delete(next.id);
      result.sent += 1;
      continue;
    }
    if (outcome.failure.kind === 'permanent') {
      parkedNow.add(next.id);
      await db.outbox.update(next.id, { state: 'pending' });
      result.parked += await park(next, outcome.failure.code);
      continue;
    }
    const attempts = next.attempts + 1;
    if (outcome.failure.kind === 'deferred') {
      // Never before the limit's time, never sooner than the backoff (a device clock behind).
      const until = outcome.failure.retryAt ?? now() + DEFERRED_RETRY_MS;
      await db.outbox.update(next.id, {
        state: 'pending',
        attempts,
        next_attempt_at: Math.max(until, now() + backoffDelay(attempts)),
        last_error: outcome.failure.code,
      });
      result.deferred += 1;
      continue;
    }
    const retryAt = now() + backoffDelay(attempts);
    await db.outbox.update(next.id, {
      state: 'pending',
      attempts,
      next_attempt_at: retryAt,
      last_error: outcome.failure.code,
    });
    result.retryAt = retryAt;
    result.stoppedBy = outcome.failure;
    break;
  }

  if (result.stoppedBy === null) await reportPendingRefusals(senderOf, result, parkedNow);

  const left = await db.outbox.toArray();
  result.remaining = left.length;
  const pending = left.filter((e) => e.state === 'pending');
  const due = pending.filter((e) => senderOf(e) !== null);
  result.held = pending.length - due.length;
  if (result.retryAt === null && due.length > 0) {
    result.retryAt = Math.min(...due.map((e) => e.next_attempt_at));
  }
  if (result.sent > 0 && result.stoppedBy === null) {
    await db.meta.put({ key: LAST_SYNC_KEY, value: new Date(now()).toISOString() });
  }
  return result;
}

/**
 * Runs `fn` while holding the outbox lock (Web Locks), so the page, other tabs and the service
 * worker never flush at the same time. Where the API is missing, runs it directly.
 */
export async function withOutboxLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return fn();
  return locks.request(OUTBOX_LOCK, { mode: 'exclusive' }, fn) as Promise<T>;
}

/**
 * The service worker's background sync (tag `OUTBOX_SYNC_TAG`): one flush under the lock. Throws
 * when it stopped on a transient failure, so the browser schedules the sync event again.
 */
export async function backgroundFlush(
  transport: OutboxTransport,
  guestTransport: OutboxTransport,
): Promise<FlushResult> {
  const result = await withOutboxLock(() => flushOutbox({ transport, guestTransport }));
  if (result.stoppedBy && result.stoppedBy.kind !== 'permanent') {
    throw new Error(`outbox flush stopped: ${result.stoppedBy.code}`);
  }
  return result;
}
