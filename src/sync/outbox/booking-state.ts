/** What the outbox writes on the booking an entry is about (its local status and sync state). */
import type { LocalBooking } from '@/domain/local-booking';
import { db } from '@/infra/db';

export async function setBookingState(
  bookingId: string,
  patch: Partial<Pick<LocalBooking, 'sync_state' | 'sync_error' | 'status' | 'refusal_report'>>,
): Promise<void> {
  await db.bookings.update(bookingId, { ...patch, updated_at: new Date().toISOString() });
}
