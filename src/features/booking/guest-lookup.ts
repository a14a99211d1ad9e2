/**
 * "Find my booking" on this device: the rule of `find_guest_booking` (supabase/migrations,
 * booking RPCs), applied to the guest bookings stored here, so the lookup works offline: the
 * reference (read as the server reads it) and the e-mail (any case) or the phone (spaces, dots,
 * written as people write it: src/domain/phone.ts).
 */
import type { LocalBooking } from '@/domain/local-booking';
import { normalizePhone } from '@/domain/phone';
import { normalizeReference } from '@/domain/reference';

export function matchesGuestLookup(
  booking: Pick<LocalBooking, 'reference' | 'user_id' | 'guest_email' | 'guest_phone'>,
  reference: string,
  contact: string,
): boolean {
  const ref = normalizeReference(reference);
  const given = contact.trim();
  if (!ref || !given || booking.user_id !== null || booking.reference !== ref) return false;
  if (given.includes('@')) {
    return !!booking.guest_email && given.toLowerCase() === booking.guest_email.toLowerCase();
  }
  const phone = normalizePhone(given);
  return phone !== null && phone === booking.guest_phone;
}

/** The guest booking stored here that the lookup names, if any. */
export function findLocalGuestBooking<B extends Parameters<typeof matchesGuestLookup>[0]>(
  bookings: readonly B[],
  reference: string,
  contact: string,
): B | null {
  return bookings.find((b) => matchesGuestLookup(b, reference, contact)) ?? null;
}
