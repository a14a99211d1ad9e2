/**
 * Booking data between the server and Dexie, outside the outbox:
 * - `pullMyBookings`: the signed-in user's bookings (status changes by staff) into Dexie, so a
 *   booking moves from "awaiting confirmation" to "confirmed", "rejected"…; the status is always
 *   the server's: a cancellation not sent yet stays in the outbox, and the card says so;
 * - `readPricingSettings`: the `settings` row the price depends on (driver per day) and the
 *   booking horizon the wizard checks, which the catalogue sync keeps in `meta`, so both work
 *   offline.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import { type LocalBooking, syncStateOf } from '@/domain/local-booking';
import type { Booking, Settings } from '@/domain/rows';
import { db } from '@/infra/db';
import { SETTINGS_KEY } from '@/sync/catalogue-sync';
import { LAST_SYNC_KEY } from '@/sync/outbox/entry';
import { classifyError } from '@/sync/outbox/errors';

export const BOOKINGS_PULLED_KEY = 'bookings.last_pull_at';

/** Stores server rows (a queued cancellation lives in the outbox, not in the status). */
export async function mergeServerBookings(
  rows: readonly Booking[],
  options: { isGuest?: boolean; lookedUp?: boolean } = {},
): Promise<void> {
  await db.transaction('rw', db.bookings, async () => {
    for (const row of rows) {
      const local = await db.bookings.get(row.id);
      const next: LocalBooking = {
        ...(local ?? {}),
        ...row,
        price: row.price,
        total_dzd: Number(row.total_dzd),
        sync_state: syncStateOf(row.status),
        sync_error: null,
        is_guest: options.isGuest ?? local?.is_guest ?? row.user_id === null,
      };
      // A booking first stored by a lookup stays "looked up"; one made here never becomes so.
      if (local ? local.looked_up : options.lookedUp) next.looked_up = true;
      await db.bookings.put(next);
    }
  });
}

/** Pulls the signed-in user's bookings (RLS returns only theirs). */
export async function pullMyBookings(
  client: SupabaseClient,
  userId: string,
): Promise<{ ok: true; count: number } | { ok: false; error: string }> {
  const { data, error, status } = await client
    .from('bookings')
    .select('*')
    .eq('user_id', userId)
    .order('created_at', { ascending: false });
  if (error) return { ok: false, error: classifyError({ ...error, status }).code };
  await mergeServerBookings((data ?? []) as Booking[], { isGuest: false });
  const now = new Date().toISOString();
  await db.meta.bulkPut([
    { key: BOOKINGS_PULLED_KEY, value: now },
    { key: LAST_SYNC_KEY, value: now },
  ]);
  return { ok: true, count: data?.length ?? 0 };
}

export async function readPricingSettings(): Promise<Pick<
  Settings,
  'driver_per_day_dzd' | 'booking_horizon_days'
> | null> {
  const row = await db.meta.get(SETTINGS_KEY);
  const value = row?.value as Partial<Settings> | undefined;
  if (typeof value?.driver_per_day_dzd !== 'number') return null;
  return {
    driver_per_day_dzd: value.driver_per_day_dzd,
    ...(typeof value.booking_horizon_days === 'number'
      ? { booking_horizon_days: value.booking_horizon_days }
      : {}),
  };
}
