/**
 * The guest bookings stored on this device keep their status current: every one that can still
 * change, in one call of `find_guest_bookings` (the guest lookup per item, within its limits),
 * when the app opens, comes online, gets the focus, every 30 s while visible, and from the
 * service worker's background checks (docs/offline-sync.md, "News: push and checks").
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import { holdsCar } from '@/domain/lifecycle';
import type { LocalBooking } from '@/domain/local-booking';
import type { Booking } from '@/domain/rows';
import { db } from '@/infra/db';
import { guestClient } from '@/infra/supabase';
import { mergeServerBookings } from '@/sync/bookings-sync';

/** At most this many bookings per call (the server's own maximum). */
export const GUEST_REFRESH_MAX = 10;

/** A guest booking stored here whose status the server may still change. */
export function isLiveGuestBooking(b: LocalBooking): boolean {
  return (
    b.user_id === null &&
    holdsCar(b.status) &&
    b.sync_state !== 'needs_attention' &&
    b.sync_state !== 'queued' &&
    !!(b.guest_email || b.guest_phone)
  );
}

/** The live guest bookings of this device, the soonest first (at most GUEST_REFRESH_MAX). */
export async function liveGuestBookings(): Promise<LocalBooking[]> {
  const all = await db.bookings.filter(isLiveGuestBooking).toArray();
  return all.sort((a, b) => a.start_at.localeCompare(b.start_at)).slice(0, GUEST_REFRESH_MAX);
}

export type GuestRefresh = {
  ok: boolean;
  /** Bookings whose status changed: [before, after]. */
  changed: Array<{ before: LocalBooking; after: Booking }>;
};

/**
 * Refreshes every live guest booking of this device in one call (none: no call). Quiet on
 * failure; an item the lookup refuses (its limit) keeps what the device knows.
 */
export async function refreshGuestBookings(client: SupabaseClient): Promise<GuestRefresh> {
  const live = await liveGuestBookings();
  if (live.length === 0) return { ok: true, changed: [] };
  const { data, error } = await client.rpc('find_guest_bookings', {
    items: live.map((b) => ({ reference: b.reference, contact: b.guest_email ?? b.guest_phone })),
  });
  if (error || !Array.isArray(data)) return { ok: false, changed: [] };
  const answers = data as Array<{ booking?: Booking | null }>;
  const rows = answers.flatMap((a) => (a.booking ? [a.booking] : []));
  const changed = rows.flatMap((after) => {
    const before = live.find((b) => b.id === after.id);
    return before && before.status !== after.status ? [{ before, after }] : [];
  });
  if (rows.length > 0) await mergeServerBookings(rows, { isGuest: true });
  return { ok: true, changed };
}

/** The page's news check: the live guest bookings, with the session-less client. */
export async function checkGuestBookings(): Promise<{ ok: boolean }> {
  const result = await refreshGuestBookings(guestClient());
  return { ok: result.ok };
}
