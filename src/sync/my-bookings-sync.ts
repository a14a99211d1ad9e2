/**
 * What /mybookings needs beside the bookings themselves (docs/bookings.md):
 * - the customer's own reviews, so a completed booking offers "leave a review" exactly while it
 *   has none: the server's list (`reviews`, RLS: own rows) and the reviews written on this device
 *   that the server has not confirmed yet, kept in `meta` so the screen works offline;
 * - `refreshMyBookings`: bookings (bookings-sync.ts) and reviews from the server, when online;
 * - `submitReview` / `forgetRefusedReview`: the review through the outbox, shown at once.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import { db } from '@/infra/db';
import { isNetworkError, isOnline, reportServerReachable } from '@/infra/network';
import { supabase } from '@/infra/supabase';
import { pullMyBookings } from '@/sync/bookings-sync';
import { enqueueSubmitReview } from '@/sync/outbox/enqueue';
import { classifyError } from '@/sync/outbox/errors';
import { dismissParked } from '@/sync/outbox/parked';

export const MY_REVIEWS_KEY = 'bookings.my_reviews';

export type MyReview = {
  booking_id: string;
  rating: number;
  comment: string | null;
  created_at: string;
};

export type MyReviews = {
  user_id: string;
  /** What the server had at the last pull. */
  server: MyReview[];
  /** Written here, not yet in `server` (queued, or sent since the last pull). */
  local: MyReview[];
  fetched_at: string | null;
};

function empty(userId: string): MyReviews {
  return { user_id: userId, server: [], local: [], fetched_at: null };
}

/** The stored reviews of `userId` (another user's are ignored: a shared device). */
export async function readMyReviews(userId: string): Promise<MyReviews> {
  const value = (await db.meta.get(MY_REVIEWS_KEY))?.value as MyReviews | undefined;
  return value?.user_id === userId ? value : empty(userId);
}

/** Every review of the user, the server's first: one per booking. */
export function reviewsByBooking(reviews: MyReviews): Map<string, MyReview> {
  const map = new Map<string, MyReview>();
  for (const r of [...reviews.local, ...reviews.server]) map.set(r.booking_id, r);
  return map;
}

async function writeMyReviews(
  userId: string,
  change: (current: MyReviews) => MyReviews,
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const next = change(await readMyReviews(userId));
    await db.meta.put({ key: MY_REVIEWS_KEY, value: next });
  });
}

/** Pulls the user's reviews (RLS returns only theirs). */
export async function pullMyReviews(
  client: SupabaseClient,
  userId: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const { data, error, status } = await client
    .from('reviews')
    .select('booking_id, rating, comment, created_at')
    .eq('user_id', userId);
  if (error) return { ok: false, error: classifyError({ ...error, status }).code };
  const server = (data ?? []) as MyReview[];
  const known = new Set(server.map((r) => r.booking_id));
  await writeMyReviews(userId, (current) => ({
    user_id: userId,
    server,
    local: current.local.filter((r) => !known.has(r.booking_id)),
    fetched_at: new Date().toISOString(),
  }));
  return { ok: true };
}

/**
 * Brings the user's bookings and reviews up to date. Offline it does nothing (the screen shows
 * what IndexedDB has); false when the server could not be reached or refused.
 */
export async function refreshMyBookings(userId: string): Promise<boolean> {
  if (!isOnline()) return false;
  try {
    const [bookings, reviews] = await Promise.all([
      pullMyBookings(supabase, userId),
      pullMyReviews(supabase, userId),
    ]);
    const offline = [bookings, reviews].some((r) => !r.ok && r.error === 'network');
    reportServerReachable(!offline);
    return bookings.ok && reviews.ok;
  } catch (error) {
    if (isNetworkError(error)) reportServerReachable(false);
    console.warn('[bookings] refresh failed', error);
    return false;
  }
}

/** Queues a review (the outbox sends it once, idempotently) and shows it here at once. */
export async function submitReview(
  userId: string,
  bookingId: string,
  rating: number,
  comment: string | null,
): Promise<void> {
  const review: MyReview = {
    booking_id: bookingId,
    rating,
    comment,
    created_at: new Date().toISOString(),
  };
  await enqueueSubmitReview(bookingId, rating, comment, () =>
    writeMyReviews(userId, (current) => ({
      ...current,
      local: [...current.local.filter((r) => r.booking_id !== bookingId), review],
    })),
  );
}

/** Gives up a review the server refused: its outbox entry and its local copy go. */
export async function forgetRefusedReview(
  userId: string,
  bookingId: string,
  entryId: string,
): Promise<void> {
  await dismissParked(entryId);
  await writeMyReviews(userId, (current) => ({
    ...current,
    local: current.local.filter((r) => r.booking_id !== bookingId),
  }));
}
