/**
 * The staff board's search and filters, as PostgREST conditions (docs/bookings.md): what a
 * search matches, which dates a range keeps, and the order of each list. Pure: staff-api.ts
 * sends them.
 */
import { algiersToIso } from '@/domain/dates';
import type { BookingStatus } from '@/domain/rows';

export type StaffStatusFilter = BookingStatus | 'all';

export type StaffQuery = {
  status: StaffStatusFilter;
  /** Algiers dates (YYYY-MM-DD): bookings whose rental overlaps [from 00:00, to 24:00). */
  from: string | null;
  to: string | null;
  /** A reference, a customer or guest name, a phone number or a guest email. */
  search: string;
};

/** Letters (any script), digits and the signs of names, emails, phones and references. */
export function cleanTerm(search: string): string {
  return search
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\s'@.+_-]/gu, ' ')
    .replace(/[_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
}

/**
 * The phone digits to look for: `0555 12 34 56`, `+213 555…` and `00213 555…` all find the
 * stored `+213555123456` (leading zeros and the country code are not required to match).
 */
export function phoneDigits(search: string): string | null {
  if (!/^[\d\s+().-]+$/.test(search.trim())) return null;
  const digits = search.replace(/\D/g, '').replace(/^0+/, '');
  return digits.length >= 4 ? digits : null;
}

/**
 * What to look for in references: `KR-7K3M-9QXD`, `kr7k3m9qxd` and `7K3M 9QXD` all find it;
 * a part (`7K3M`) finds every reference that contains it.
 */
export function referencePattern(term: string): string {
  const compact = term.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const code = compact.startsWith('KR') && compact.length > 8 ? compact.slice(2) : compact;
  if (code.length === 8) {
    // A whole reference, read the Crockford way (I and L are 1, O is 0).
    const crockford = code.replace(/[IL]/g, '1').replace(/O/g, '0');
    return `KR-${crockford.slice(0, 4)}-${crockford.slice(4)}`;
  }
  return /-/.test(term) ? term.toUpperCase().replace(/\s/g, '') : code;
}

/** The PostgREST `or` conditions of a search, beside the ids of the customers it matches. */
export function searchConditions(search: string, customerIds: readonly string[]): string[] {
  const term = cleanTerm(search);
  if (!term) return [];
  const like = (column: string, value: string) => `${column}.ilike."*${value}*"`;
  const conditions = [
    like('reference', referencePattern(term)),
    like('guest_name', term),
    like('guest_email', term),
  ];
  const digits = phoneDigits(search);
  if (digits) conditions.push(like('guest_phone', digits));
  if (customerIds.length > 0) conditions.push(`user_id.in.(${customerIds.join(',')})`);
  return conditions;
}

/** The rental overlaps the chosen Algiers days: ends after `from` 00:00, starts before `to` 24:00. */
export function periodBounds(
  from: string | null,
  to: string | null,
): { endsAfter: string | null; startsBefore: string | null } {
  const start = from ? algiersToIso(from, '00:00') : null;
  const endDay = to ? algiersToIso(to, '00:00') : null;
  const startsBefore = endDay
    ? new Date(Date.parse(endDay) + 24 * 60 * 60 * 1000).toISOString()
    : null;
  return { endsAfter: start ? new Date(start).toISOString() : null, startsBefore };
}

/** The order that fits each list: what to handle next first, the finished ones newest first. */
export function staffOrder(status: StaffStatusFilter): { column: string; ascending: boolean } {
  switch (status) {
    case 'pending':
    case 'reserved':
      return { column: 'start_at', ascending: true };
    case 'in_progress':
      return { column: 'end_at', ascending: true };
    case 'all':
      return { column: 'created_at', ascending: false };
    default:
      return { column: 'updated_at', ascending: false };
  }
}
