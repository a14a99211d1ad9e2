/**
 * The staff board's calls (docs/bookings.md). Staff screens are online-only: nothing here is
 * queued or kept in IndexedDB; every call goes to PostgREST with the admin's token, and RLS lets
 * admins read every booking, profile, review and status event. Status changes go through
 * `staff_set_booking_status`, which checks the role and the lifecycle again on the server.
 */
import { bookingStatuses } from '@/domain/lifecycle';
import type { Booking, BookingStatus, ExtraCode, InsuranceCode, Localized } from '@/domain/rows';
import { reportServerReachable } from '@/infra/network';
import { supabase } from '@/infra/supabase';
import { classifyError } from '@/sync/outbox/errors';

import {
  cleanTerm,
  periodBounds,
  phoneDigits,
  searchConditions,
  staffOrder,
  type StaffQuery,
} from '@/features/staff/staff-search';
import { staffCall, type Answer, type StaffResult } from '@/features/staff/staff-call';

export const STAFF_PAGE_SIZE = 30;

/** The contact staff call about a booking: the customer's profile and account, or the guest's. */
export type StaffContact = {
  kind: 'customer' | 'guest';
  name: string;
  phone: string | null;
  email: string | null;
};

export type StaffBooking = Booking & {
  car: {
    name: string;
    slug: string;
    images: string[];
    year: number;
    fuel: string;
    transmission: string;
  } | null;
  pickup: { name: Localized } | null;
  dropoff: { name: Localized } | null;
  contact: StaffContact;
};

export type BookingEvent = {
  id: number;
  /** A status change, or a pickup/return record (docs/handovers.md). */
  status: BookingStatus | 'pickup_recorded' | 'return_recorded';
  reason: string | null;
  actor: 'customer' | 'guest' | 'staff' | 'system';
  actor_name: string | null;
  created_at: string;
};

export type OptionNames = {
  extras: Partial<Record<ExtraCode, Localized>>;
  insurance: Partial<Record<InsuranceCode, Localized>>;
};

// Typed as string: the columns and embeds are checked by the API tests, not by the compiler.
const BOOKING_SELECT: string =
  '*, car:cars(name, slug, images, year, fuel, transmission), pickup:locations!bookings_pickup_location_id_fkey(name), dropoff:locations!bookings_dropoff_location_id_fkey(name)';

/** Customers whose name or phone matches the search (admins read every profile). */
async function matchingCustomers(search: string): Promise<StaffResult<string[]>> {
  const term = cleanTerm(search);
  if (!term) return { ok: true, data: [] };
  const conditions = [`full_name.ilike."*${term}*"`];
  const digits = phoneDigits(search);
  if (digits) conditions.push(`phone.ilike."*${digits}*"`);
  const result = await staffCall<{ id: string }[]>(() =>
    supabase.from('profiles').select('id').or(conditions.join(',')).limit(200),
  );
  return result.ok ? { ok: true, data: result.data.map((r) => r.id) } : result;
}

/** The part of PostgREST's query builder the board uses (kept small for the compiler). */
type Query = PromiseLike<unknown> & {
  eq(column: string, value: unknown): Query;
  gt(column: string, value: unknown): Query;
  lt(column: string, value: unknown): Query;
  or(filters: string): Query;
  order(column: string, options: { ascending: boolean }): Query;
  range(from: number, to: number): Query;
};

function applyFilters(query: Query, filters: StaffQuery, customerIds: readonly string[]): Query {
  let q = query;
  if (filters.status !== 'all') q = q.eq('status', filters.status);
  const { endsAfter, startsBefore } = periodBounds(filters.from, filters.to);
  if (endsAfter) q = q.gt('end_at', endsAfter);
  if (startsBefore) q = q.lt('start_at', startsBefore);
  const conditions = searchConditions(filters.search, customerIds);
  if (conditions.length > 0) q = q.or(conditions.join(','));
  return q;
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

type BookingRow = Omit<StaffBooking, 'contact'>;
type ContactRow = { id: string; full_name: string; phone: string | null; email: string | null };

/** Adds the contact to each booking: the guest's fields, or the customer's profile and email. */
async function withContacts(rows: BookingRow[]): Promise<StaffResult<StaffBooking[]>> {
  const ids = [...new Set(rows.map((r) => r.user_id).filter((id): id is string => !!id))];
  let contacts = new Map<string, ContactRow>();
  if (ids.length > 0) {
    const result = await staffCall<ContactRow[]>(() =>
      supabase.rpc('staff_customer_contacts', { user_ids: ids }),
    );
    if (!result.ok) return result;
    contacts = new Map(result.data.map((c) => [c.id, c]));
  }
  return {
    ok: true,
    data: rows.map((row) => {
      const profile = row.user_id ? contacts.get(row.user_id) : undefined;
      const contact: StaffContact = row.user_id
        ? {
            kind: 'customer',
            name: profile?.full_name ?? '',
            phone: profile?.phone ?? null,
            email: profile?.email ?? null,
          }
        : {
            kind: 'guest',
            name: row.guest_name ?? '',
            phone: row.guest_phone,
            email: row.guest_email,
          };
      return { ...row, total_dzd: Number(row.total_dzd), contact };
    }),
  };
}

export type StaffPage = { rows: StaffBooking[]; total: number };

/** One page of the board, filtered and ordered for the chosen status. */
export async function fetchStaffBookings(
  query: StaffQuery,
  offset = 0,
  limit = STAFF_PAGE_SIZE,
): Promise<StaffResult<StaffPage>> {
  const customers = await matchingCustomers(query.search);
  if (!customers.ok) return customers;
  const order = staffOrder(query.status);
  let total = 0;
  const page = await staffCall<BookingRow[]>(async () => {
    const answer = (await applyFilters(
      supabase.from('bookings').select(BOOKING_SELECT, { count: 'exact' }) as unknown as Query,
      query,
      customers.data,
    )
      .order(order.column, { ascending: order.ascending })
      .order('id', { ascending: true })
      .range(offset, offset + limit - 1)) as Answer<BookingRow[]>;
    total = answer.count ?? 0;
    return answer;
  });
  if (!page.ok) return page;
  const rows = await withContacts(page.data);
  return rows.ok ? { ok: true, data: { rows: rows.data, total } } : rows;
}

/** How many bookings each status has under the same date and search filters. */
export async function fetchStatusCounts(
  query: Omit<StaffQuery, 'status'>,
): Promise<StaffResult<Record<BookingStatus, number>>> {
  const customers = await matchingCustomers(query.search);
  if (!customers.ok) return customers;
  const results = await Promise.all(
    bookingStatuses.map(async (status) => {
      let count = 0;
      const result = await staffCall<null>(async () => {
        const answer = (await applyFilters(
          supabase
            .from('bookings')
            .select('id', { count: 'exact', head: true }) as unknown as Query,
          { ...query, status },
          customers.data,
        )) as Answer<null>;
        count = answer.count ?? 0;
        return answer;
      });
      return result.ok ? ({ ok: true, data: [status, count] } as const) : result;
    }),
  );
  const failed = results.find((r) => !r.ok);
  if (failed && !failed.ok) return failed;
  return {
    ok: true,
    data: Object.fromEntries(results.map((r) => (r.ok ? r.data : []))) as Record<
      BookingStatus,
      number
    >,
  };
}

/** One booking with its contact, or null when it does not exist. */
export async function fetchStaffBooking(id: string): Promise<StaffResult<StaffBooking | null>> {
  const result = await staffCall<BookingRow | null>(() =>
    supabase.from('bookings').select(BOOKING_SELECT).eq('id', id).maybeSingle(),
  );
  if (!result.ok) return result;
  if (!result.data) return { ok: true, data: null };
  const rows = await withContacts([result.data]);
  return rows.ok ? { ok: true, data: rows.data[0] ?? null } : rows;
}

type EventRow = Omit<BookingEvent, 'actor_name'> & { who: { full_name: string } | null };

/** The booking's status history, oldest first, with the name of who made each change. */
export async function fetchBookingHistory(id: string): Promise<StaffResult<BookingEvent[]>> {
  const result = await staffCall<EventRow[]>(() =>
    supabase
      .from('booking_events')
      .select('id, status, reason, actor, created_at, who:profiles(full_name)')
      .eq('booking_id', id)
      .order('created_at', { ascending: true })
      .order('id', { ascending: true }),
  );
  if (!result.ok) return result;
  return {
    ok: true,
    data: result.data.map(({ who, ...event }) => ({
      ...event,
      actor_name: who?.full_name?.trim() || null,
    })),
  };
}

let optionNames: Promise<StaffResult<OptionNames>> | null = null;

/** The names of the extras and insurance options (asked once per page load). */
export function fetchOptionNames(): Promise<StaffResult<OptionNames>> {
  optionNames ??= (async () => {
    const [extras, insurance] = await Promise.all([
      staffCall<{ code: ExtraCode; name: Localized }[]>(() =>
        supabase.from('extras').select('code, name'),
      ),
      staffCall<{ code: InsuranceCode; name: Localized }[]>(() =>
        supabase.from('insurance_options').select('code, name'),
      ),
    ]);
    if (!extras.ok) return extras;
    if (!insurance.ok) return insurance;
    return {
      ok: true as const,
      data: {
        extras: Object.fromEntries(extras.data.map((e) => [e.code, e.name])),
        insurance: Object.fromEntries(insurance.data.map((i) => [i.code, i.name])),
      },
    };
  })().then((result) => {
    if (!result.ok) optionNames = null;
    return result;
  });
  return optionNames;
}

/** How long a document link stays valid. */
export const DOCUMENT_LINK_SECONDS = 10 * 60;

/** A signed link to a booking's licence or flight document (admins may read both buckets). */
export async function documentLink(
  bucket: 'licenses' | 'flight-documents',
  path: string,
): Promise<StaffResult<string>> {
  try {
    const { data, error } = await supabase.storage
      .from(bucket)
      .createSignedUrl(path, DOCUMENT_LINK_SECONDS);
    if (!error && data?.signedUrl) {
      reportServerReachable(true);
      return { ok: true, data: data.signedUrl };
    }
    // StorageApiError carries the HTTP status; an error without one never reached the server.
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status !== 'number') throw error;
    reportServerReachable(true);
    const code = status === 404 || status === 400 ? 'file_missing' : classifyError({ status }).code;
    return { ok: false, code, offline: false };
  } catch {
    reportServerReachable(false);
    return { ok: false, code: 'network', offline: true };
  }
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

/** A staff move of the lifecycle; the server checks the role, the transition and the reason. */
export async function setBookingStatus(
  bookingId: string,
  status: BookingStatus,
  reason: string | null,
): Promise<StaffResult<Booking>> {
  return staffCall<Booking>(() =>
    supabase.rpc('staff_set_booking_status', {
      booking_id: bookingId,
      status,
      // The function reads '' as "no reason", like null (its generated type takes a string).
      reason: reason?.trim() ?? '',
    }),
  );
}

/** Where pending bookings come from (`staff_pending_sources`): a client address or a mail domain. */
export type PendingSource = {
  kind: 'address' | 'domain';
  source: string;
  pending: number;
  /** Of them, guest bookings whose e-mail nobody confirmed (they hold no car). */
  unconfirmed: number;
  /** Car-days the proven ones hold over the booking horizon. */
  car_days: number;
  first_at: string;
  last_at: string;
  refs: string[];
};

/** The largest sources of pending bookings (two or more each), largest first. */
export async function fetchPendingSources(): Promise<StaffResult<PendingSource[]>> {
  const result = await staffCall<PendingSource[]>(() => supabase.rpc('staff_pending_sources'));
  return result.ok
    ? { ok: true, data: result.data.map((s) => ({ ...s, car_days: Number(s.car_days) })) }
    : result;
}

/** Rejects every pending booking of one source with staff's reason; answers how many. */
export async function rejectSource(
  source: Pick<PendingSource, 'kind' | 'source'>,
  reason: string,
): Promise<StaffResult<number>> {
  return staffCall<number>(() =>
    supabase.rpc('staff_reject_source', {
      kind: source.kind,
      source: source.source,
      reason: reason.trim(),
    }),
  );
}

/**
 * `staff_confirm_guest_contact`: staff vouch for a guest's contact (after a call), when no code
 * reached them; the booking then waits for acceptance like a confirmed one.
 */
export async function confirmGuestContact(bookingId: string): Promise<StaffResult<Booking>> {
  return staffCall<Booking>(() =>
    supabase.rpc('staff_confirm_guest_contact', { booking_id: bookingId }),
  );
}

/** `staff_extend_confirmation`: the guest's deadline to confirm becomes now + `minutes` at least. */
export async function extendConfirmation(
  bookingId: string,
  minutes: number,
): Promise<StaffResult<Booking>> {
  return staffCall<Booking>(() =>
    supabase.rpc('staff_extend_confirmation', { booking_id: bookingId, minutes }),
  );
}
