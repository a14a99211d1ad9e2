/**
 * The rules of /mybookings, apart from the screen: which tab a booking belongs to, in which
 * order, what the customer may do with it, and what its sync state means (docs/bookings.md).
 */
import { stageOf } from '@/domain/booking-outcomes';
import { canMove, isFinal, isReviewable } from '@/domain/lifecycle';
import type { LocalBooking } from '@/domain/local-booking';
import type { OutboxEntry } from '@/infra/db';
import type { MyReview } from '@/sync/my-bookings-sync';

export type BookingTab = 'current' | 'past';

/**
 * Bookings still ahead or under way, local ones that still need the customer, and those whose
 * cancellation waits in the outbox: a booking moves to "past" only once the server took the
 * cancellation (issue 20), whatever this device wrote before.
 */
export function tabOf(
  booking: Pick<LocalBooking, 'status'>,
  entries: BookingEntries = {},
): BookingTab {
  const { status } = booking;
  if (entries.cancel && entries.cancel.state !== 'parked') return 'current';
  return status === 'queued' || status === 'sync_failed' || !isFinal(status) ? 'current' : 'past';
}

const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);

/**
 * Current: what needs attention first, then the soonest pickup. Past: the latest rental first.
 * Ties keep a stable order by reference.
 */
export function splitBookings(
  bookings: readonly LocalBooking[],
  entries: ReadonlyMap<string, BookingEntries> = new Map(),
): Record<BookingTab, LocalBooking[]> {
  const tab = (b: LocalBooking) => tabOf(b, entries.get(b.id));
  const current = bookings.filter((b) => tab(b) === 'current');
  const past = bookings.filter((b) => tab(b) === 'past');
  const attention = (b: LocalBooking) => (b.status === 'sync_failed' ? 0 : 1);
  current.sort(
    (a, b) =>
      attention(a) - attention(b) ||
      byTime(a.start_at, b.start_at) ||
      a.reference.localeCompare(b.reference),
  );
  past.sort((a, b) => byTime(b.start_at, a.start_at) || a.reference.localeCompare(b.reference));
  return { current, past };
}

/** The outbox entries that concern one booking (the screen reads them live from IndexedDB). */
export type BookingEntries = {
  create?: OutboxEntry;
  cancel?: OutboxEntry;
  review?: OutboxEntry;
};

/** Groups the create, cancel and review entries of the outbox by booking id. */
export function entriesByBooking(entries: readonly OutboxEntry[]): Map<string, BookingEntries> {
  const map = new Map<string, BookingEntries>();
  for (const entry of entries) {
    const payload = entry.payload as { id?: string; booking_id?: string };
    const key =
      entry.kind === 'create_booking'
        ? 'create'
        : entry.kind === 'cancel_booking'
          ? 'cancel'
          : entry.kind === 'submit_review'
            ? 'review'
            : null;
    const bookingId = entry.kind === 'create_booking' ? payload.id : payload.booking_id;
    if (!key || !bookingId) continue;
    const slot = map.get(bookingId) ?? {};
    // The newest entry of a kind wins (a retried review replaces a refused one).
    if (!slot[key] || slot[key].seq < entry.seq) slot[key] = entry;
    map.set(bookingId, slot);
  }
  return map;
}

export type CancelAction =
  /** Never reached the server: removed from the outbox, nothing is sent. */
  | 'discard'
  /** Sent through `cancel_booking` by the outbox. */
  | 'cancel';

export type BookingActions = {
  cancel: CancelAction | null;
  review: boolean;
};

/**
 * What the customer may do: cancel while the lifecycle lets them (pending or reserved), or drop a
 * booking that never reached the server; review a completed booking once.
 */
export function actionsFor(
  booking: Pick<LocalBooking, 'status' | 'user_id'>,
  entries: BookingEntries,
  review: MyReview | undefined,
): BookingActions {
  let cancel: CancelAction | null = null;
  if (!entries.cancel) {
    if (booking.status === 'queued' || booking.status === 'sync_failed') cancel = 'discard';
    else if (canMove('customer', booking.status, 'cancelled')) cancel = 'cancel';
  }
  return {
    cancel,
    // A refused review is first given up (or sent again) from its notice.
    review: isReviewable(booking.status) && booking.user_id !== null && !entries.review && !review,
  };
}

/** What the card says about the booking's journey to the server. */
export type SyncView =
  | { kind: 'queued' | 'sending' | 'awaiting' | 'confirmed' }
  | { kind: 'needs_attention'; code: string | null; entry: OutboxEntry | undefined }
  | { kind: 'cancel_queued' }
  | { kind: 'cancel_refused'; code: string | null; entry: OutboxEntry };

/** The sync views of a cancellation (the others follow the booking's stage). */
export type CancelView = Extract<SyncView, { kind: 'cancel_queued' | 'cancel_refused' }>;

/** Codes the customer fixes by choosing another car or other dates (on the booking's page). */
export const fixableCodes: ReadonlySet<string> = new Set([
  'car_unavailable',
  'dates_in_past',
  'invalid_dates',
  'rental_too_long',
]);

/**
 * The card's line about the server: the booking's stage (`stageOf`, the one reading of where a
 * booking stands: docs/booking.md, "Outcomes"), or a cancellation on its way, which comes first.
 */
export function syncViewOf(
  booking: LocalBooking,
  entries: BookingEntries,
  now?: number,
): SyncView | null {
  if (entries.cancel) {
    return entries.cancel.state === 'parked'
      ? { kind: 'cancel_refused', code: entries.cancel.last_error, entry: entries.cancel }
      : { kind: 'cancel_queued' };
  }
  switch (stageOf(booking, now)) {
    case 'needs_attention':
      return { kind: 'needs_attention', code: booking.sync_error, entry: entries.create };
    case 'queued':
      return { kind: 'queued' };
    case 'sending':
      return { kind: 'sending' };
    case 'pending':
    case 'awaiting_confirmation':
      return { kind: 'awaiting' };
    case 'reserved':
    case 'in_progress':
      return { kind: 'confirmed' };
    default:
      // Completed, cancelled, rejected, expired: the status says it all.
      return null;
  }
}

/** The review of a booking as the card shows it. */
export type ReviewView =
  | { kind: 'none' }
  | { kind: 'sent' | 'queued'; review: MyReview }
  | { kind: 'refused'; code: string | null; entry: OutboxEntry; review: MyReview | undefined };

export function reviewViewOf(entries: BookingEntries, review: MyReview | undefined): ReviewView {
  if (entries.review?.state === 'parked') {
    return { kind: 'refused', code: entries.review.last_error, entry: entries.review, review };
  }
  if (review) return { kind: entries.review ? 'queued' : 'sent', review };
  return { kind: 'none' };
}
