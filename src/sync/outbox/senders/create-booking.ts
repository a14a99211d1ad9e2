/**
 * `create_booking`: idempotent on the booking's id (the server returns the stored row), which
 * replaces the local copy; the files it carried are then forgotten.
 */
import type { BookingRequest } from '@/domain/booking-request';
import { syncStateOf, type LocalBooking } from '@/domain/local-booking';
import type { Booking } from '@/domain/rows';
import { db } from '@/infra/db';
import { setBookingState } from '@/sync/outbox/booking-state';
import { classifyError, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendCreate(t: OutboxTransport, p: BookingRequest): Promise<Outcome> {
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
