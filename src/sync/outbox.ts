/**
 * The outbox: every write the app makes to the server waits here until it lands, exactly once.
 *
 * - Entries are FIFO (`seq`) with dependencies (`depends_on`): a booking waits for its licence
 *   upload. An entry is removed once the server accepted it; an entry's dependencies are met when
 *   they are no longer in the outbox.
 * - Transient failures (offline, timeout, 408/429/5xx, network errors) keep the entry, count the
 *   attempt and retry with backoff: 200 ms doubling up to 5 minutes.
 * - A 401 refreshes the session once and retries; permanent failures (22xxx/23xxx validation,
 *   42501 permission, our P0001 codes such as `car_unavailable`, storage 4xx) park the entry and
 *   everything that depends on it, and the queue goes on with the others (PowerSync's rule).
 * - Every write is idempotent, so the outbox can be replayed any number of times: uploads take
 *   "already exists" for success, `create_booking` is idempotent on the booking id, cancelling a
 *   cancelled booking, reviewing a reviewed one and marking a read notification are no-ops.
 *
 * This module runs in the page and in the service worker: no DOM, only Dexie and a transport.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import {
  bookingRequestSchema,
  type BookingRequest,
  type UploadBucket,
} from '@/domain/booking-request';
import type { Booking, PriceBreakdown } from '@/domain/rows';
import {
  db,
  type BookingSyncState,
  type LocalBooking,
  type LocalFile,
  type OutboxEntry,
  type OutboxKind,
} from '@/infra/db';

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

/** `create_booking(p jsonb)`: the booking request (src/domain/booking-request.ts). */
export type CreateBookingPayload = BookingRequest;

export type UploadFilePayload = {
  file_id: string;
  booking_id: string;
  bucket: UploadBucket;
  path: string;
};
export type CancelBookingPayload = { booking_id: string };
export type SubmitReviewPayload = { booking_id: string; rating: number; comment: string | null };
export type MarkNotificationReadPayload =
  { notification_id: string } | { all_of_user: string; notification_id?: undefined };

export type OutboxPayloads = {
  upload_file: UploadFilePayload;
  create_booking: CreateBookingPayload;
  cancel_booking: CancelBookingPayload;
  submit_review: SubmitReviewPayload;
  mark_notification_read: MarkNotificationReadPayload;
};

export type TypedEntry<K extends OutboxKind = OutboxKind> = Omit<
  OutboxEntry,
  'kind' | 'payload'
> & {
  kind: K;
  payload: OutboxPayloads[K];
};

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** What a failed call means for the queue. */
export type Failure =
  | { kind: 'transient'; code: string }
  | { kind: 'auth'; code: string }
  | { kind: 'permanent'; code: string };

/** The error shapes supabase-js returns: PostgREST `{code, message}` + status, storage `{statusCode}`. */
export type ApiError = {
  status?: number;
  code?: string;
  message?: string;
  statusCode?: string;
  details?: string | null;
};

const TRANSIENT_STATUSES = new Set([0, 408, 425, 429, 500, 502, 503, 504]);

/**
 * Classifies a failed call like PowerSync's Supabase connector: data and permission errors are
 * parked, authentication is refreshed, everything else is retried.
 */
export function classifyError(error: ApiError | null | undefined): Failure {
  const status = typeof error?.status === 'number' ? error.status : 0;
  const code = (error?.code ?? '').toString();
  const message = (error?.message ?? '').toString();
  if (code === 'P0001') return { kind: 'permanent', code: message || 'P0001' };
  if (/^2[23][0-9A-Z]{3}$/.test(code) || code === '42501') {
    return { kind: 'permanent', code: code === '42501' ? 'not_allowed' : code };
  }
  if (status === 401 || code === 'PGRST301' || code === 'PGRST303') {
    return { kind: 'auth', code: 'unauthorized' };
  }
  if (TRANSIENT_STATUSES.has(status)) {
    return { kind: 'transient', code: status === 0 ? 'network' : `http_${status}` };
  }
  const storageCode = Number(error?.statusCode);
  if (storageCode === 413 || status === 413) return { kind: 'permanent', code: 'file_too_large' };
  if (storageCode === 415 || status === 415 || /mime|file type/i.test(message)) {
    return { kind: 'permanent', code: 'unsupported_file_type' };
  }
  if (status === 403 || storageCode === 403) return { kind: 'permanent', code: 'not_allowed' };
  if (status >= 400 && status < 500) return { kind: 'permanent', code: `http_${status}` };
  return { kind: 'transient', code: status ? `http_${status}` : 'unknown' };
}

/** Storage's answer to an upload of a path that exists: the earlier attempt landed. */
export function isAlreadyExists(error: ApiError): boolean {
  return (
    error.statusCode === '409' ||
    error.status === 409 ||
    /already exists|duplicate/i.test(error.message ?? '')
  );
}

export function backoffDelay(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);
}

// ---------------------------------------------------------------------------------------------
// Transport: what the outbox needs from the server (supabase-js in the app, fakes in tests)
// ---------------------------------------------------------------------------------------------

export type CallResult<T = unknown> = { data: T | null; error: ApiError | null };

export interface OutboxTransport {
  rpc<T = unknown>(fn: string, args: Record<string, unknown>): Promise<CallResult<T>>;
  upload(bucket: string, path: string, blob: Blob, contentType: string): Promise<CallResult>;
  markNotificationsRead(payload: MarkNotificationReadPayload): Promise<CallResult>;
  /** The server status of one of my bookings (null when not visible to me). */
  bookingStatus(bookingId: string): Promise<CallResult<string>>;
  /** Refreshes the session; true when there is a fresh token to retry with. */
  refreshSession(): Promise<boolean>;
  /** The user this transport sends as (null: the anon key, no session). */
  userId(): Promise<string | null>;
}

export function supabaseTransport(client: SupabaseClient): OutboxTransport {
  return {
    async rpc(fn, args) {
      const { data, error, status } = await client.rpc(fn, args);
      return { data, error: error ? { ...error, status } : null };
    },
    async upload(bucket, path, blob, contentType) {
      try {
        const { data, error } = await client.storage
          .from(bucket)
          .upload(path, blob, { contentType, upsert: false });
        if (!error) return { data, error: null };
        const e = error as ApiError & { status?: number; statusCode?: string };
        const status = typeof e.status === 'number' ? e.status : e.statusCode ? 400 : 0;
        return { data: null, error: { status, statusCode: e.statusCode, message: e.message } };
      } catch (error) {
        return { data: null, error: { status: 0, message: String(error) } };
      }
    },
    async markNotificationsRead(payload) {
      const patch = { is_read: true, updated_at: new Date().toISOString() };
      const query =
        payload.notification_id !== undefined
          ? client.from('notifications').update(patch).eq('id', payload.notification_id)
          : client
              .from('notifications')
              .update(patch)
              .eq('user_id', payload.all_of_user)
              .eq('is_read', false);
      const { error, status } = await query;
      return { data: null, error: error ? { ...error, status } : null };
    },
    async bookingStatus(bookingId) {
      const { data, error, status } = await client
        .from('bookings')
        .select('status')
        .eq('id', bookingId)
        .maybeSingle();
      return { data: data?.status ?? null, error: error ? { ...error, status } : null };
    },
    async refreshSession() {
      const { data: current } = await client.auth.getSession();
      if (!current.session) return false;
      const { data, error } = await client.auth.refreshSession();
      return !error && !!data.session;
    },
    async userId() {
      const { data } = await client.auth.getSession();
      return data.session?.user.id ?? null;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Local booking state
// ---------------------------------------------------------------------------------------------

/** The sync state a server status means for a booking that reached the server. */
export function syncStateOf(status: Booking['status']): BookingSyncState {
  return status === 'pending' ? 'awaiting' : 'confirmed';
}

async function setBookingState(
  bookingId: string,
  patch: Partial<Pick<LocalBooking, 'sync_state' | 'sync_error' | 'status'>>,
): Promise<void> {
  await db.bookings.update(bookingId, { ...patch, updated_at: new Date().toISOString() });
}

// ---------------------------------------------------------------------------------------------
// Enqueueing (called by screens; each one transaction)
// ---------------------------------------------------------------------------------------------

/** Asks the service worker to flush when the network is back, where the browser supports it. */
export function requestBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (typeof window === 'undefined') return;
  void navigator.serviceWorker.ready
    .then((registration) => {
      const sync = (
        registration as ServiceWorkerRegistration & {
          sync?: { register(tag: string): Promise<void> };
        }
      ).sync;
      return sync?.register(OUTBOX_SYNC_TAG);
    })
    .catch((error: unknown) => console.warn('[outbox] background sync not registered', error));
}

const enqueueListeners = new Set<() => void>();

/** Called after each enqueue in this context (the sync engine flushes). */
export function onEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => {
    enqueueListeners.delete(listener);
  };
}

function notifyEnqueued(): void {
  for (const listener of [...enqueueListeners]) listener();
  requestBackgroundSync();
}

/** Must run inside a transaction that includes `db.outbox`. */
async function nextSeq(): Promise<number> {
  const last = await db.outbox.orderBy('seq').last();
  return (last?.seq ?? 0) + 1;
}

function newEntry<K extends OutboxKind>(
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

/** The owner of the writes about a booking of this device (null: a guest's, or unknown). */
async function bookingOwner(bookingId: string): Promise<string | null> {
  return (await db.bookings.get(bookingId))?.user_id ?? null;
}

export type QueueBookingInput = {
  booking: LocalBooking;
  files: LocalFile[];
  payload: CreateBookingPayload;
};

/**
 * Stores a confirmed booking and queues it, in one transaction: the booking (queued), its files
 * (as Blobs), one upload per file, then `create_booking` depending on the uploads. A booking
 * already queued under the same id (a fix after "needs attention") is replaced; uploads already
 * made are not repeated.
 */
export async function queueBooking({ booking, files, payload }: QueueBookingInput): Promise<void> {
  bookingRequestSchema.parse(payload);
  await db.transaction('rw', db.bookings, db.files, db.outbox, async () => {
    await removeBookingEntries(booking.id);
    await db.bookings.put({ ...booking, status: 'queued', sync_state: 'queued', sync_error: null });
    let seq = await nextSeq();
    const owner = booking.is_guest ? null : booking.user_id;
    const uploads: string[] = [];
    for (const file of files) {
      await db.files.put(file);
      const entry = newEntry(
        'upload_file',
        { file_id: file.id, booking_id: booking.id, bucket: file.bucket, path: file.path },
        owner,
        seq,
      );
      seq += 1;
      uploads.push(entry.id);
      await db.outbox.add(entry);
    }
    await db.outbox.add(newEntry('create_booking', payload, owner, seq, uploads));
  });
  notifyEnqueued();
}

function entryBookingId(entry: OutboxEntry): string | null {
  const payload = entry.payload as Partial<Record<'booking_id' | 'id', string>>;
  if (entry.kind === 'create_booking') return payload.id ?? null;
  if (entry.kind === 'upload_file' || entry.kind === 'cancel_booking') {
    return payload.booking_id ?? null;
  }
  return null;
}

async function removeBookingEntries(bookingId: string): Promise<void> {
  const entries = await db.outbox.toArray();
  const ids = entries
    .filter(
      (e) =>
        (e.kind === 'upload_file' || e.kind === 'create_booking') &&
        entryBookingId(e) === bookingId,
    )
    .map((e) => e.id);
  await db.outbox.bulkDelete(ids);
}

/** True while the booking's creation has not reached the server (nothing was sent for it). */
export async function isBookingUnsent(bookingId: string): Promise<boolean> {
  const entries = await db.outbox.where('kind').equals('create_booking').toArray();
  return entries.some((e) => entryBookingId(e) === bookingId && e.state !== 'sending');
}

/**
 * Forgets a booking that never reached the server: its outbox entries, its files and the booking
 * itself. Returns false (and changes nothing) when its creation was already sent.
 */
export async function discardUnsentBooking(bookingId: string): Promise<boolean> {
  return db.transaction('rw', db.bookings, db.files, db.outbox, async () => {
    if (!(await isBookingUnsent(bookingId))) return false;
    await removeBookingEntries(bookingId);
    await db.files.bulkDelete(
      (await db.files.toArray()).filter((f) => f.path.startsWith(`${bookingId}/`)).map((f) => f.id),
    );
    await db.bookings.delete(bookingId);
    return true;
  });
}

/**
 * Cancels a booking: one still queued is simply removed from the outbox (nothing is sent); one the
 * server has is cancelled through `cancel_booking`, shown cancelled at once.
 * Returns 'discarded' or 'queued'.
 */
export async function enqueueCancelBooking(bookingId: string): Promise<'discarded' | 'queued'> {
  const result = await db.transaction('rw', db.bookings, db.files, db.outbox, async () => {
    if (await discardUnsentBooking(bookingId)) return 'discarded' as const;
    const seq = await nextSeq();
    // The create may be in flight right now: the cancel waits for it.
    const creating = (await db.outbox.where('kind').equals('create_booking').toArray())
      .filter((e) => entryBookingId(e) === bookingId)
      .map((e) => e.id);
    const owner = await bookingOwner(bookingId);
    await db.outbox.add(
      newEntry('cancel_booking', { booking_id: bookingId }, owner, seq, creating),
    );
    await db.bookings.update(bookingId, {
      status: 'cancelled',
      updated_at: new Date().toISOString(),
    });
    return 'queued' as const;
  });
  if (result === 'queued') notifyEnqueued();
  return result;
}

export async function enqueueSubmitReview(
  bookingId: string,
  rating: number,
  comment: string | null,
): Promise<void> {
  await db.transaction('rw', db.outbox, db.bookings, async () => {
    const owner = await bookingOwner(bookingId);
    await db.outbox.add(
      newEntry('submit_review', { booking_id: bookingId, rating, comment }, owner, await nextSeq()),
    );
  });
  notifyEnqueued();
}

/** Marks one notification read on the server (the caller updates Dexie for the UI). */
export async function enqueueMarkNotificationRead(notificationId: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.notifications, async () => {
    const owner = (await db.notifications.get(notificationId))?.user_id ?? null;
    await db.outbox.add(
      newEntry(
        'mark_notification_read',
        { notification_id: notificationId },
        owner,
        await nextSeq(),
      ),
    );
  });
  notifyEnqueued();
}

/** Marks all unread notifications of a user read on the server. */
export async function enqueueMarkAllNotificationsRead(userId: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox.add(
      newEntry('mark_notification_read', { all_of_user: userId }, userId, await nextSeq()),
    );
  });
  notifyEnqueued();
}

/** Sends a parked entry (and the entries parked because of it) again, from a clean slate. */
export async function retryParked(entryId: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.bookings, async () => {
    const all = await db.outbox.toArray();
    const ids = new Set([entryId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const e of all) {
        if (!ids.has(e.id) && e.depends_on.some((d) => ids.has(d))) {
          ids.add(e.id);
          grew = true;
        }
      }
    }
    for (const e of all.filter((x) => ids.has(x.id) && x.state === 'parked')) {
      await db.outbox.update(e.id, {
        state: 'pending',
        attempts: 0,
        next_attempt_at: Date.now(),
        last_error: null,
      });
      const bookingId = entryBookingId(e);
      if (e.kind === 'create_booking' && bookingId) {
        await db.bookings.update(bookingId, {
          status: 'queued',
          sync_state: 'queued',
          sync_error: null,
        });
      }
    }
  });
  notifyEnqueued();
}

/** Drops a parked entry the user gave up on (and those that depend on it). */
export async function dismissParked(entryId: string): Promise<void> {
  const entry = await db.outbox.get(entryId);
  if (!entry) return;
  const bookingId = entryBookingId(entry);
  if (bookingId && (entry.kind === 'create_booking' || entry.kind === 'upload_file')) {
    await discardUnsentBooking(bookingId);
    return;
  }
  await db.transaction('rw', db.outbox, async () => {
    const dependants = (await db.outbox.toArray()).filter((e) => e.depends_on.includes(entryId));
    await db.outbox.bulkDelete([entryId, ...dependants.map((e) => e.id)]);
  });
}

/**
 * Rewrites the booking of a parked `create_booking` (another car, other dates) and queues it again,
 * keeping its id, reference and files. `price` is the new local estimate.
 */
export async function updateQueuedBooking(
  bookingId: string,
  patch: Partial<Pick<CreateBookingPayload, 'car_id' | 'start_at' | 'end_at' | 'reference'>>,
  price: PriceBreakdown,
): Promise<void> {
  await db.transaction('rw', db.outbox, db.bookings, async () => {
    const entry = (await db.outbox.where('kind').equals('create_booking').toArray()).find(
      (e) => entryBookingId(e) === bookingId,
    );
    if (!entry) throw new Error(`no queued creation for booking ${bookingId}`);
    const payload = bookingRequestSchema.parse({ ...(entry.payload as object), ...patch });
    await db.outbox.update(entry.id, {
      payload,
      state: 'pending',
      attempts: 0,
      last_error: null,
      next_attempt_at: Date.now(),
    });
    for (const dep of entry.depends_on) {
      await db.outbox.update(dep, { state: 'pending', attempts: 0, last_error: null });
    }
    await db.bookings.update(bookingId, {
      ...patch,
      price,
      total_dzd: price.total,
      status: 'queued',
      sync_state: 'queued',
      sync_error: null,
      updated_at: new Date().toISOString(),
    });
  });
  notifyEnqueued();
}

// ---------------------------------------------------------------------------------------------
// Flushing
// ---------------------------------------------------------------------------------------------

export type FlushResult = {
  /** Entries the server accepted during this flush. */
  sent: number;
  /** Entries parked during this flush. */
  parked: number;
  /** Entries left (pending or parked). */
  remaining: number;
  /** Pending entries of a user who is not signed in here: they wait until that user is. */
  held: number;
  /** When the next pending entry may be tried (null: nothing pending). */
  retryAt: number | null;
  /** Why the flush stopped early, if it did. */
  stoppedBy: Failure | null;
};

type Outcome = { ok: true } | { ok: false; failure: Failure };

async function sendUpload(t: OutboxTransport, p: UploadFilePayload): Promise<Outcome> {
  const booking = await db.bookings.get(p.booking_id);
  // The booking reached the server, so its files did too (create_booking checks they exist).
  if (booking && (booking.sync_state === 'awaiting' || booking.sync_state === 'confirmed')) {
    return { ok: true };
  }
  const file = await db.files.get(p.file_id);
  if (!file) return (await landedAlready(t, p)) ?? permanent('file_missing');
  const { error } = await t.upload(p.bucket, p.path, file.blob, file.type);
  if (!error || isAlreadyExists(error)) return { ok: true };
  const failure = classifyError(error);
  if (failure.kind === 'permanent' && failure.code === 'not_allowed') {
    // A visitor may not write into the folder of a booking that exists: the booking may have
    // landed on an earlier run whose answer was lost. Its creation tells (idempotent on the id).
    return (await landedAlready(t, p)) ?? { ok: false, failure };
  }
  return { ok: false, failure };
}

function permanent(code: string): Outcome {
  return { ok: false, failure: { kind: 'permanent', code } };
}

/**
 * Replays the creation an upload is for: `create_booking` returns the stored booking when it
 * exists (and checks the files are there), so success means the upload had landed too.
 */
async function landedAlready(t: OutboxTransport, p: UploadFilePayload): Promise<Outcome | null> {
  const create = (await db.outbox.where('kind').equals('create_booking').toArray()).find(
    (e) => (e.payload as CreateBookingPayload).id === p.booking_id,
  );
  if (!create) return null;
  const outcome = await sendCreate(t, create.payload as CreateBookingPayload);
  return outcome.ok ? outcome : null;
}

async function sendCreate(t: OutboxTransport, p: CreateBookingPayload): Promise<Outcome> {
  await setBookingState(p.id, { sync_state: 'sending' });
  const { data, error } = await t.rpc<Booking>('create_booking', { p });
  if (error || !data) {
    const failure = classifyError(error ?? { status: 500 });
    if (failure.kind !== 'permanent') await setBookingState(p.id, { sync_state: 'queued' });
    return { ok: false, failure };
  }
  const row = data;
  await db.transaction('rw', db.bookings, db.files, async () => {
    const local = await db.bookings.get(p.id);
    await db.bookings.put({
      ...(local as LocalBooking),
      ...row,
      sync_state: syncStateOf(row.status),
      sync_error: null,
      is_guest: local?.is_guest ?? row.user_id === null,
    });
    await db.files.bulkDelete(
      (await db.files.toArray()).filter((f) => f.path.startsWith(`${p.id}/`)).map((f) => f.id),
    );
  });
  return { ok: true };
}

async function sendCancel(t: OutboxTransport, p: CancelBookingPayload): Promise<Outcome> {
  const { error } = await t.rpc('cancel_booking', { booking_id: p.booking_id });
  if (!error) {
    await setBookingState(p.booking_id, { status: 'cancelled' });
    return { ok: true };
  }
  const failure = classifyError(error);
  if (failure.kind === 'permanent') {
    // Replayed after it landed: the booking is already cancelled, which is what we wanted.
    const current = await t.bookingStatus(p.booking_id);
    if (current.data === 'cancelled') return { ok: true };
    if (current.data) {
      await setBookingState(p.booking_id, { status: current.data as Booking['status'] });
    }
  }
  return { ok: false, failure };
}

async function sendReview(t: OutboxTransport, p: SubmitReviewPayload): Promise<Outcome> {
  const { error } = await t.rpc('submit_review', { ...p });
  if (!error) return { ok: true };
  const failure = classifyError(error);
  if (failure.kind === 'permanent' && failure.code === 'already_reviewed') return { ok: true };
  return { ok: false, failure };
}

async function sendMarkRead(t: OutboxTransport, p: MarkNotificationReadPayload): Promise<Outcome> {
  const { error } = await t.markNotificationsRead(p);
  return error ? { ok: false, failure: classifyError(error) } : { ok: true };
}

async function send(t: OutboxTransport, entry: OutboxEntry): Promise<Outcome> {
  switch (entry.kind) {
    case 'upload_file':
      return sendUpload(t, entry.payload as UploadFilePayload);
    case 'create_booking':
      return sendCreate(t, entry.payload as CreateBookingPayload);
    case 'cancel_booking':
      return sendCancel(t, entry.payload as CancelBookingPayload);
    case 'submit_review':
      return sendReview(t, entry.payload as SubmitReviewPayload);
    case 'mark_notification_read':
      return sendMarkRead(t, entry.payload as MarkNotificationReadPayload);
  }
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
    const next = entries.find(
      (e) =>
        e.state === 'pending' && e.depends_on.every((d) => !present.has(d)) && senderOf(e) !== null,
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
      await db.outbox.update(next.id, { state: 'pending' });
      result.parked += await park(next, outcome.failure.code);
      continue;
    }
    const attempts = next.attempts + 1;
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
