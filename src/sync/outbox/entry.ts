/**
 * The outbox's entry model: every write the app makes to the server waits in the Dexie table
 * `outbox` (src/infra/db.ts) as one entry until it lands, exactly once.
 *
 * - Entries are FIFO (`seq`) with dependencies (`depends_on`): a booking waits for its licence
 *   upload. An entry is removed once the server accepted it; an entry's dependencies are met when
 *   they are no longer in the outbox.
 * - Each kind has its payload (below) and its sender (senders/); errors.ts says what a failure
 *   means for the queue; enqueue.ts adds entries, parked.ts handles those the server refused,
 *   flush.ts sends them.
 * - Every write is idempotent, so the outbox can be replayed any number of times.
 *
 * The outbox runs in the page and in the service worker: no DOM, only Dexie and a transport.
 */
import type { BookingRequest, UploadBucket } from '@/domain/booking-request';
import type { HandoverRequest } from '@/domain/handover';
import { db, type OutboxEntry, type OutboxKind } from '@/infra/db';

export const OUTBOX_SYNC_TAG = 'kiraa-outbox';

export const OUTBOX_LOCK = 'kiraa-outbox-flush';

export const BACKOFF_BASE_MS = 200;

export const BACKOFF_CAP_MS = 5 * 60 * 1000;

/** An entry that has waited longer than this is called out to the user. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export const LAST_SYNC_KEY = 'outbox.last_success_at';

// ---------------------------------------------------------------------------------------------
// Payloads
// ---------------------------------------------------------------------------------------------

export type UploadFilePayload = {
  file_id: string;
  booking_id: string;
  bucket: UploadBucket | 'handovers';
  path: string;
};

export type CancelBookingPayload = { booking_id: string };

export type SubmitReviewPayload = { booking_id: string; rating: number; comment: string | null };

export type MarkNotificationReadPayload =
  { notification_id: string } | { all_of_user: string; notification_id?: undefined };

export type OutboxPayloads = {
  upload_file: UploadFilePayload;
  create_booking: BookingRequest;
  cancel_booking: CancelBookingPayload;
  submit_review: SubmitReviewPayload;
  mark_notification_read: MarkNotificationReadPayload;
  /** A pickup or return record (staff), sent after its photos' uploads: src/sync/outbox/handover.ts. */
  record_handover: HandoverRequest;
};

export type TypedEntry<K extends OutboxKind = OutboxKind> = Omit<
  OutboxEntry,
  'kind' | 'payload'
> & {
  kind: K;
  payload: OutboxPayloads[K];
};

export function backoffDelay(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);
}

/** Must run inside a transaction that includes `db.outbox`. */
export async function nextSeq(): Promise<number> {
  const last = await db.outbox.orderBy('seq').last();
  return (last?.seq ?? 0) + 1;
}

export function newEntry<K extends OutboxKind>(
  kind: K,
  payload: OutboxPayloads[K],
  owner: string | null,
  seq: number,
  dependsOn: string[] = [],
): TypedEntry<K> {
  const now = Date.now();
  return {
    id: crypto.randomUUID(),
    kind,
    payload,
    owner,
    depends_on: dependsOn,
    seq,
    attempts: 0,
    next_attempt_at: now,
    state: 'pending',
    last_error: null,
    created_at: now,
  };
}

/**
 * The booking whose creation or cancellation an entry is part of (null for the rest, including a
 * pickup/return record and its photos: staff's, never a booking of this device).
 */
export function entryBookingId(entry: OutboxEntry): string | null {
  const payload = entry.payload as Partial<Record<'booking_id' | 'id' | 'bucket', string>>;
  if (entry.kind === 'create_booking') return payload.id ?? null;
  if (entry.kind === 'upload_file' && payload.bucket === 'handovers') return null;
  if (entry.kind === 'upload_file' || entry.kind === 'cancel_booking') {
    return payload.booking_id ?? null;
  }
  return null;
}
