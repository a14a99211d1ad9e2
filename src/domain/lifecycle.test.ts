import { describe, expect, it } from 'vitest';

import {
  bookingStatuses,
  canMove,
  holdsCar,
  isFinal,
  moveOutcome,
  movesFrom,
  REASON_MAX,
} from '@/domain/lifecycle';

const kinds = (status: string, actor: 'customer' | 'staff') =>
  movesFrom(status, actor).map((m) => m.kind);

describe('the booking lifecycle', () => {
  it('lets staff accept, reject or cancel a pending booking, start or cancel a reserved one, complete a rental', () => {
    expect(kinds('pending', 'staff')).toEqual(['accept', 'reject', 'cancel']);
    expect(kinds('reserved', 'staff')).toEqual(['start', 'cancel']);
    expect(kinds('in_progress', 'staff')).toEqual(['complete']);
    for (const status of ['completed', 'cancelled', 'rejected']) {
      expect(kinds(status, 'staff'), status).toEqual([]);
    }
  });

  it('lets the customer only cancel, while pending or reserved', () => {
    expect(bookingStatuses.filter((s) => canMove('customer', s, 'cancelled'))).toEqual([
      'pending',
      'reserved',
    ]);
    expect(canMove('customer', 'pending', 'reserved')).toBe(false);
  });

  it('answers with the server’s codes', () => {
    expect(moveOutcome('staff', 'pending', 'reserved')).toBe('ok');
    expect(moveOutcome('staff', 'pending', 'rejected')).toBe('reason_required');
    expect(moveOutcome('staff', 'pending', 'rejected', '  ')).toBe('reason_required');
    expect(moveOutcome('staff', 'pending', 'rejected', 'Permis illisible')).toBe('ok');
    expect(moveOutcome('staff', 'pending', 'cancelled', 'x'.repeat(REASON_MAX + 1))).toBe(
      'invalid_payload',
    );
    expect(moveOutcome('staff', 'completed', 'cancelled', 'trop tard')).toBe(
      'invalid_status_transition',
    );
    expect(moveOutcome('staff', 'pending', 'pending')).toBe('invalid_status_transition');
    expect(moveOutcome('staff', 'pending', 'not_a_status')).toBe('invalid_status_transition');
    // A replayed cancellation changes nothing and is no error; the customer gives no reason.
    expect(moveOutcome('customer', 'cancelled', 'cancelled')).toBe('unchanged');
    expect(moveOutcome('customer', 'reserved', 'cancelled', 'x'.repeat(REASON_MAX + 1))).toBe('ok');
    expect(moveOutcome('customer', 'in_progress', 'cancelled')).toBe('invalid_status_transition');
  });

  it('holds the car while the booking is alive, and nothing leaves a final status', () => {
    expect(bookingStatuses.filter(holdsCar)).toEqual(['pending', 'reserved', 'in_progress']);
    expect(bookingStatuses.filter(isFinal)).toEqual([
      'completed',
      'cancelled',
      'rejected',
      'expired',
    ]);
  });
});
