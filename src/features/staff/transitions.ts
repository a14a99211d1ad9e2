/**
 * The staff moves of the booking lifecycle (src/domain/lifecycle.ts), as the board offers them.
 * The server (`staff_set_booking_status`) is the judge; this only decides which buttons to show
 * and what their dialog asks.
 */
import { stageOf, type StageInput } from '@/domain/booking-outcomes';
import { moves, movesFrom, REASON_MAX, type Move, type MoveKind } from '@/domain/lifecycle';
import type { BookingStatus } from '@/domain/rows';

export type StaffActionKind = MoveKind;

export type StaffAction = {
  kind: StaffActionKind;
  from: readonly BookingStatus[];
  to: BookingStatus;
  /**
   * The dialog asks for a reason: rejections need one (server rule); so do staff cancellations
   * (the customer is told why).
   */
  reasonRequired: boolean;
  /** Ends the booking for good: shown as a destructive action. */
  destructive: boolean;
};

function staffAction(move: Move): StaffAction {
  const ends = move.kind === 'reject' || move.kind === 'cancel';
  return {
    kind: move.kind,
    from: move.from,
    to: move.to,
    reasonRequired: move.reasonRequired || move.kind === 'cancel',
    destructive: ends,
  };
}

export const STAFF_ACTIONS: readonly StaffAction[] = moves
  .filter((m) => m.by.includes('staff'))
  .map(staffAction);

/** The moves staff may make from `status`, the forward one first. */
export function actionsFor(status: BookingStatus): StaffAction[] {
  return movesFrom(status, 'staff').map(staffAction);
}

/**
 * The moves staff may make on this booking now: an unconfirmed guest booking cannot be accepted
 * (`contact_not_confirmed`), one past its confirmation deadline cannot move at all
 * (`booking_expired`); docs/decisions.md.
 */
export function actionsForBooking(booking: StageInput & { status: BookingStatus }): StaffAction[] {
  const stage = stageOf(booking);
  if (stage === 'expired') return [];
  const actions = actionsFor(booking.status);
  return stage === 'awaiting_confirmation' ? actions.filter((a) => a.kind !== 'accept') : actions;
}

/** Why a reason cannot be sent yet, or null when it can. */
export function reasonProblem(
  action: StaffAction,
  reason: string,
): 'reason_required' | 'reason_too_long' | null {
  const text = reason.trim();
  if (action.reasonRequired && !text) return 'reason_required';
  if (text.length > REASON_MAX) return 'reason_too_long';
  return null;
}
