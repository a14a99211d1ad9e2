/**
 * "Find my booking" on this device: the rule of `find_guest_booking` (supabase/migrations,
 * booking RPCs), applied to the guest bookings stored here, so the lookup works offline: the
 * reference (read as the server reads it) and the e-mail (any case) or the phone (spaces, dots,
 * dashes and brackets ignored; 00… and a national 0… number read as international).
 */
import type { LocalBooking } from '@/domain/local-booking';
import { normalizeReference } from '@/domain/reference';

/** `internal.normalize_phone(value, lenient => true)`: null when it cannot be a phone number. */
export function lookupPhone(value: string): string | null {
  let v = value.replace(/[\s.()-]/g, '');
  if (/^00\d/.test(v)) v = `+${v.slice(2)}`;
  else if (/^0\d{9}$/.test(v)) v = `+213${v.slice(1)}`;
  return /^\+\d{8,15}$/.test(v) ? v : null;
}

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
  const phone = lookupPhone(given);
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
