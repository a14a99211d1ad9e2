/**
 * Entries the server refused for good ("parked"): sent again from a clean slate, dropped, or —
 * for a booking — rewritten with another car, other dates or a new reference and queued again.
 */
import { bookingRequestSchema, type BookingRequest } from '@/domain/booking-request';
import type { LocalBooking } from '@/domain/local-booking';
import type { PriceBreakdown } from '@/domain/rows';
import { db } from '@/infra/db';
import { discardUnsentBooking, notifyEnqueued } from '@/sync/outbox/enqueue';
import { entryBookingId } from '@/sync/outbox/entry';

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
 * Rewrites the booking of a parked `create_booking` (another car, other dates, a new reference, or
 * the whole request corrected in the wizard: src/features/booking/edit-draft.ts) and queues the
 * same entry again, keeping its id and files. `price` is the new local estimate.
 */
export async function updateQueuedBooking(
  bookingId: string,
  patch: Partial<Omit<BookingRequest, 'id'>>,
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
      // The request's option codes were checked by the schema above: the booking's own types.
      ...(patch as Partial<LocalBooking>),
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
