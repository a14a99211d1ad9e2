import { quoteOf, type QuoteRequest } from '@/domain/booking-request';
import type { LocalBooking } from '@/domain/local-booking';
import type { Booking, PriceBreakdown } from '@/domain/rows';
import { db } from '@/infra/db';
import { guestClient, supabase } from '@/infra/supabase';
import { mergeServerBookings } from '@/sync/bookings-sync';
import { refreshGuestBookings as refreshStoredGuestBookings } from '@/sync/guest-refresh';
import { classifyError, retryAfterOf, type ApiError } from '@/sync/outbox/errors';

/**
 * The booking feature's calls to the server: the only module of src/features/booking (with
 * join-account-api.ts) that holds the client. The device's reads are in booking-store.ts, so the
 * wizard's first screen loads no supabase-js; writes go through the outbox (src/sync/outbox).
 */

export type ServerQuote =
  { ok: true; price: PriceBreakdown } | { ok: false; transient: boolean; code: string };

/** `quote_booking`: the server's (authoritative) price of a request. */
export async function quotePrice(request: QuoteRequest): Promise<ServerQuote> {
  try {
    const { data, error, status } = await supabase.rpc('quote_booking', { p: quoteOf(request) });
    if (error || !data) {
      const failure = classifyError(error ? { ...(error as ApiError), status } : { status });
      return { ok: false, transient: failure.kind !== 'permanent', code: failure.code };
    }
    return { ok: true, price: data as PriceBreakdown };
  } catch (error) {
    return { ok: false, transient: true, code: String(error) };
  }
}

export type GuestLookup =
  | { kind: 'found'; booking: Booking }
  | { kind: 'not_found' }
  | { kind: 'rate_limited' }
  | { kind: 'error'; code: string };

/** Looks a guest booking up by reference and email or phone; a booking found is kept here. */
export async function lookupGuestBooking(reference: string, contact: string): Promise<GuestLookup> {
  const { data, error, status } = await supabase.rpc('find_guest_booking', { reference, contact });
  if (error) {
    const failure = classifyError({ ...(error as ApiError), status });
    return failure.code === 'rate_limited'
      ? { kind: 'rate_limited' }
      : { kind: 'error', code: failure.code };
  }
  const row = (Array.isArray(data) ? data[0] : data) as Booking | null | undefined;
  if (!row || !row.id) return { kind: 'not_found' };
  await mergeServerBookings([row], { isGuest: true, lookedUp: true });
  return { kind: 'found', booking: row };
}

/**
 * Refreshes every guest booking of this device that can still change (pending, reserved, in
 * progress) in one call of `find_guest_bookings`, the guest lookup per booking: staff's
 * decisions and expiries reach a guest's device too. Quiet on failure.
 */
export async function refreshGuestBookings(): Promise<void> {
  await refreshStoredGuestBookings(guestClient()).catch(() => undefined);
}

export type ConfirmReason =
  | 'invalid_confirmation_code'
  | 'confirmation_attempts_exceeded'
  | 'booking_expired'
  | 'invalid_status_transition'
  /** A confirmed booking took the car first: this request is over (expired). */
  | 'car_unavailable'
  /** What its sources hold already (docs/decisions.md, "Who may hold the fleet"). */
  | 'too_many_pending_for_contact'
  | 'too_many_pending_for_domain'
  | 'too_many_pending_from_address';

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
async function keep(match: { id?: string; reference?: string }, patch: Partial<LocalBooking>) {
  const local = match.id
    ? await db.bookings.get(match.id)
    : await db.bookings
        .where('reference')
        .equals(match.reference ?? '')
        .first();
  if (local) await db.bookings.update(local.id, { ...patch, sync_error: null });
}

const expired: Partial<Booking> = { status: 'expired', status_reason: 'contact_not_confirmed' };

/**
 * `confirm_guest_booking(reference, code)`: the guest's e-mail confirmed with the mailed code
 * (docs/decisions.md, "Guest contact confirmation"). What the answer says about a booking stored
 * here is kept, so its page shows it offline too.
 */
export async function confirmGuestBooking(reference: string, code: string): Promise<ConfirmResult> {
  try {
    const { data, error, status } = await supabase.rpc('confirm_guest_booking', {
      reference,
      code,
    });
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
    if (reason === 'car_unavailable') {
      await keep({ reference }, { status: 'expired', status_reason: 'car_unavailable' });
    }
    return { kind: 'refused', reason };
  } catch (error) {
    return { kind: 'error', code: String(error) };
  }
}

/** `resend_guest_confirmation(booking_id)`: a new code by mail (the id is the proof). */
export async function resendGuestConfirmation(bookingId: string): Promise<ResendResult> {
  try {
    const { data, error, status } = await supabase.rpc('resend_guest_confirmation', {
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
    if (answer.sent) {
      await keep({ id: bookingId }, { code_mail_sent: true });
      return { kind: 'sent', resendsLeft: answer.resends_left ?? 0 };
    }
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
