/**
 * The booking lifecycle (docs/database.md): which status may follow which, and who may make the
 * move. The server is the judge — `cancel_booking` for the customer, `staff_set_booking_status`
 * for staff (supabase/migrations/*_booking_rpcs.sql) — and tests/api/lifecycle-rules.test.ts
 * holds this table equal to what they accept, refuse, and with which code. The screens read it
 * to decide which buttons to offer.
 *
 *   pending ──accept──▶ reserved ──start──▶ in_progress ──complete──▶ completed
 *      │ reject (reason) ──▶ rejected   │
 *      └──────── cancel (customer or staff) ──▶ cancelled
 *
 * A guest's booking whose e-mail is not confirmed by `confirm_by` becomes `expired` (reason
 * `contact_not_confirmed`): the server does it, nobody asks for it, and no move leaves it.
 */
import { LIMITS } from '@/domain/limits';
import type { BookingStatus } from '@/domain/rows';

/**
 * Every status a booking reaches through a move, in lifecycle order. `expired` (an unconfirmed
 * guest booking past its deadline) is set only by the server's expiry job, holds no car, and has
 * its row in the outcome table (src/domain/booking-outcomes.ts), not here.
 */
export const bookingStatuses = [
  'pending',
  'reserved',
  'in_progress',
  'completed',
  'cancelled',
  'rejected',
  'expired',
] as const satisfies readonly BookingStatus[];

/** Who asks for a move: the booking's customer (signed in) or the agency. */
export type Actor = 'customer' | 'staff';

export type MoveKind = 'accept' | 'reject' | 'start' | 'complete' | 'cancel';

export type Move = {
  kind: MoveKind;
  from: readonly BookingStatus[];
  to: BookingStatus;
  by: readonly Actor[];
  /** The server refuses the move without a reason (`reason_required`). */
  reasonRequired: boolean;
};

/** The moves, the forward one first from each status. */
export const moves: readonly Move[] = [
  { kind: 'accept', from: ['pending'], to: 'reserved', by: ['staff'], reasonRequired: false },
  { kind: 'reject', from: ['pending'], to: 'rejected', by: ['staff'], reasonRequired: true },
  { kind: 'start', from: ['reserved'], to: 'in_progress', by: ['staff'], reasonRequired: false },
  {
    kind: 'complete',
    from: ['in_progress'],
    to: 'completed',
    by: ['staff'],
    reasonRequired: false,
  },
  {
    kind: 'cancel',
    from: ['pending', 'reserved'],
    to: 'cancelled',
    by: ['customer', 'staff'],
    reasonRequired: false,
  },
];

/** The longest reason the server stores (`bookings_status_reason_length`). */
export const REASON_MAX = LIMITS.text;

/** The moves `actor` may make from `status`. */
export function movesFrom(status: string, actor: Actor): Move[] {
  return moves.filter(
    (m) => m.by.includes(actor) && (m.from as readonly string[]).includes(status),
  );
}

/**
 * What the server answers when `actor` asks to move a booking from `from` to `to`:
 * - `ok`: the booking moves;
 * - `unchanged`: the customer cancels a booking that is already cancelled (an outbox replay);
 * - a stable error code (docs/decisions.md) otherwise.
 */
export type MoveOutcome =
  'ok' | 'unchanged' | 'invalid_status_transition' | 'reason_required' | 'invalid_payload';

export function moveOutcome(
  actor: Actor,
  from: string,
  to: string,
  reason: string | null = null,
): MoveOutcome {
  if (actor === 'customer' && from === 'cancelled' && to === 'cancelled') return 'unchanged';
  const move = movesFrom(from, actor).find((m) => m.to === to);
  if (!move) return 'invalid_status_transition';
  const text = actor === 'staff' ? (reason ?? '').trim() : '';
  if (move.reasonRequired && !text) return 'reason_required';
  if (text.length > REASON_MAX) return 'invalid_payload';
  return 'ok';
}

/** Whether `actor` may move the booking to `to` now (whatever the reason says). */
export function canMove(actor: Actor, from: string, to: BookingStatus): boolean {
  return movesFrom(from, actor).some((m) => m.to === to);
}

/**
 * Statuses in which a booking holds its car: the database's `EXCLUDE` constraint and
 * `car_busy_periods` (availability.ts) count these, and only these.
 */
export const carHoldingStatuses: readonly BookingStatus[] = ['pending', 'reserved', 'in_progress'];

export function holdsCar(status: string): boolean {
  return (carHoldingStatuses as readonly string[]).includes(status);
}

/** A status no move leaves: the booking is over. */
export function isFinal(status: BookingStatus): boolean {
  return moves.every((m) => !m.from.includes(status));
}

/** The customer of a booking may review it once it is completed (`submit_review`). */
export function isReviewable(status: string): boolean {
  return status === 'completed';
}
