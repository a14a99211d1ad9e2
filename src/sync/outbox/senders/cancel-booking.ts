/** `cancel_booking`: a refusal while the booking is already cancelled is success (a replay). */
import type { Booking } from '@/domain/rows';
import { setBookingState } from '@/sync/outbox/booking-state';
import type { CancelBookingPayload } from '@/sync/outbox/entry';
import { classifyError, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendCancel(t: OutboxTransport, p: CancelBookingPayload): Promise<Outcome> {
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
