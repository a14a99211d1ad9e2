/**
 * The staff moves of the booking lifecycle (ARCHITECTURE §2), as the board offers them. The
 * server (`staff_set_booking_status`) is the judge; this only decides which buttons to show.
 */
import type { BookingStatus } from '@/domain/rows';

export type StaffActionKind = 'accept' | 'reject' | 'start' | 'complete' | 'cancel';

export type StaffAction = {
  kind: StaffActionKind;
  from: readonly BookingStatus[];
  to: BookingStatus;
  /** Rejections need a reason (server rule); so do staff cancellations (the customer is told why). */
  reasonRequired: boolean;
  /** Ends the booking for good: shown as a destructive action. */
  destructive: boolean;
};

export const STAFF_ACTIONS: readonly StaffAction[] = [
  { kind: 'accept', from: ['pending'], to: 'reserved', reasonRequired: false, destructive: false },
  { kind: 'reject', from: ['pending'], to: 'rejected', reasonRequired: true, destructive: true },
  {
    kind: 'start',
    from: ['reserved'],
    to: 'in_progress',
    reasonRequired: false,
    destructive: false,
  },
  {
    kind: 'complete',
    from: ['in_progress'],
    to: 'completed',
    reasonRequired: false,
    destructive: false,
  },
  {
    kind: 'cancel',
    from: ['pending', 'reserved'],
    to: 'cancelled',
    reasonRequired: true,
    destructive: true,
  },
];

/** The moves staff may make from `status`, the forward one first. */
export function actionsFor(status: BookingStatus): StaffAction[] {
  return STAFF_ACTIONS.filter((a) => a.from.includes(status));
}

/** The longest reason the server stores (bookings_status_reason_length). */
export const REASON_MAX = 500;

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
