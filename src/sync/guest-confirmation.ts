/**
 * A guest's e-mail confirmation (docs/decisions.md, "Guest contact confirmation"):
 * `confirm_guest_booking(reference, code)` with the mailed code or the mail's link, and
 * `resend_guest_confirmation(booking_id)` for a new code. Both answer their outcomes as values;
 * what they say about the booking is kept on this device, so its page shows it offline too.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import type { Booking } from '@/domain/rows';
import { db } from '@/infra/db';
import { classifyError, retryAfterOf, type ApiError } from '@/sync/outbox/errors';

export type ConfirmReason =
  | 'invalid_confirmation_code'
  | 'confirmation_attempts_exceeded'
  | 'booking_expired'
  | 'invalid_status_transition';

export type ConfirmResult =
  | { kind: 'confirmed'; booking: Pick<Booking, 'id' | 'reference' | 'status'> }
  | { kind: 'refused'; reason: ConfirmReason }
  | { kind: 'rate_limited'; retryAt: number | null }
  | { kind: 'error'; code: string };

export type ResendReason =
  | 'resend_limited'
  | 'mail_rate_limited'
  | 'already_confirmed'
  | 'booking_expired'
  | 'invalid_status_transition';

export type ResendResult =
  | { kind: 'sent'; resendsLeft: number }
  | { kind: 'refused'; reason: ResendReason; retryAt: number | null }
  | { kind: 'error'; code: string };

/** What the server's answer says about a booking stored here (matched by id or reference). */
async function keep(match: { id?: string; reference?: string }, patch: Partial<Booking>) {
  const local = match.id
    ? await db.bookings.get(match.id)
    : await db.bookings
        .where('reference')
        .equals(match.reference ?? '')
        .first();
  if (local) await db.bookings.update(local.id, { ...patch, sync_error: null });
}

const expired: Partial<Booking> = { status: 'expired', status_reason: 'contact_not_confirmed' };

export async function confirmGuestBooking(
  client: SupabaseClient,
  reference: string,
  code: string,
): Promise<ConfirmResult> {
  try {
    const { data, error, status } = await client.rpc('confirm_guest_booking', { reference, code });
    if (error) {
      const failure = classifyError({ ...(error as ApiError), status });
      return failure.code === 'rate_limited'
        ? { kind: 'rate_limited', retryAt: retryAfterOf(error.details) }
        : { kind: 'error', code: failure.code };
    }
    const answer = data as { confirmed: boolean; reason?: ConfirmReason; booking?: Booking };
    if (answer.confirmed && answer.booking) {
      const b = answer.booking;
      await keep(
        { id: b.id },
        {
          status: b.status,
          confirm_by: b.confirm_by,
          contact_confirmed_at: b.contact_confirmed_at,
          updated_at: b.updated_at,
        },
      );
      return { kind: 'confirmed', booking: b };
    }
    const reason = answer.reason ?? 'invalid_confirmation_code';
    if (reason === 'booking_expired') await keep({ reference }, expired);
    return { kind: 'refused', reason };
  } catch (error) {
    return { kind: 'error', code: String(error) };
  }
}

export async function resendGuestConfirmation(
  client: SupabaseClient,
  bookingId: string,
): Promise<ResendResult> {
  try {
    const { data, error, status } = await client.rpc('resend_guest_confirmation', {
      booking_id: bookingId,
    });
    if (error) {
      const failure = classifyError({ ...(error as ApiError), status });
      return { kind: 'error', code: failure.code };
    }
    const answer = data as {
      sent: boolean;
      reason?: ResendReason;
      resends_left?: number;
      retry_after?: string | null;
    };
    if (answer.sent) return { kind: 'sent', resendsLeft: answer.resends_left ?? 0 };
    const reason = answer.reason ?? 'invalid_status_transition';
    if (reason === 'booking_expired') await keep({ id: bookingId }, expired);
    if (reason === 'already_confirmed') {
      await keep({ id: bookingId }, { contact_confirmed_at: new Date().toISOString() });
    }
    const retryAt = answer.retry_after ? Date.parse(answer.retry_after) : null;
    return { kind: 'refused', reason, retryAt };
  } catch (error) {
    return { kind: 'error', code: String(error) };
  }
}
