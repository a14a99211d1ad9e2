/**
 * Adding to the outbox (called by screens; each one transaction), and taking out what was never
 * sent: a queued booking that is cancelled or discarded is simply removed.
 */
import { bookingRequestSchema, type BookingRequest } from '@/domain/booking-request';
import type { LocalBooking } from '@/domain/local-booking';
import { db, type LocalFile } from '@/infra/db';
import { entryBookingId, newEntry, nextSeq, OUTBOX_SYNC_TAG } from '@/sync/outbox/entry';

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

export function notifyEnqueued(): void {
  for (const listener of [...enqueueListeners]) listener();
  requestBackgroundSync();
}

/** The owner of the writes about a booking of this device (null: a guest's, or unknown). */
async function bookingOwner(bookingId: string): Promise<string | null> {
  return (await db.bookings.get(bookingId))?.user_id ?? null;
}

export type QueueBookingInput = {
  booking: LocalBooking;
  files: LocalFile[];
  payload: BookingRequest;
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
 * server has is cancelled through `cancel_booking`. Its local status stays the server's until the
 * server took the cancellation: the card says "cancellation queued" meanwhile (issue 20).
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
    return 'queued' as const;
  });
  if (result === 'queued') notifyEnqueued();
  return result;
}

export async function enqueueSubmitReview(
  bookingId: string,
  rating: number,
  comment: string | null,
  alongside?: () => Promise<void>,
): Promise<void> {
  // `alongside` writes the device's copy in the same transaction: no reader sees the review
  // without its entry (shown as sent while it waits) or the entry without the review.
  await db.transaction('rw', db.outbox, db.bookings, db.meta, async () => {
    await alongside?.();
    const owner = await bookingOwner(bookingId);
    await db.outbox.add(
      newEntry('submit_review', { booking_id: bookingId, rating, comment }, owner, await nextSeq()),
    );
  });
  notifyEnqueued();
}

/**
 * Marks one notification read on the server. `apply` changes the device's copy in the same
 * transaction (false: nothing changed, nothing is queued): no reader sees it read without its
 * entry, and a mark that cannot be queued leaves it unread here too.
 */
export async function enqueueMarkNotificationRead(
  notificationId: string,
  apply?: () => Promise<boolean>,
): Promise<void> {
  const queued = await db.transaction('rw', db.outbox, db.notifications, async () => {
    if (apply && !(await apply())) return false;
    const owner = (await db.notifications.get(notificationId))?.user_id ?? null;
    await db.outbox.add(
      newEntry(
        'mark_notification_read',
        { notification_id: notificationId },
        owner,
        await nextSeq(),
      ),
    );
    return true;
  });
  if (queued) notifyEnqueued();
}

/** Marks all unread notifications of a user read on the server; `apply` as above. */
export async function enqueueMarkAllNotificationsRead(
  userId: string,
  apply?: () => Promise<boolean>,
): Promise<void> {
  const queued = await db.transaction('rw', db.outbox, db.notifications, async () => {
    if (apply && !(await apply())) return false;
    await db.outbox.add(
      newEntry('mark_notification_read', { all_of_user: userId }, userId, await nextSeq()),
    );
    return true;
  });
  if (queued) notifyEnqueued();
}
