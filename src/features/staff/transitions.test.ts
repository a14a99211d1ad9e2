import { describe, expect, it } from 'vitest';

import { REASON_MAX } from '@/domain/lifecycle';

import {
  actionsFor,
  actionsForBooking,
  reasonProblem,
  STAFF_ACTIONS,
} from '@/features/staff/transitions';

const kinds = (status: Parameters<typeof actionsFor>[0]) => actionsFor(status).map((a) => a.kind);

describe('staff moves', () => {
  it('follows the lifecycle: accept, reject or cancel a pending booking; start or cancel a reserved one; complete a rental', () => {
    expect(kinds('pending')).toEqual(['accept', 'reject', 'cancel']);
    expect(kinds('reserved')).toEqual(['start', 'cancel']);
    expect(kinds('in_progress')).toEqual(['complete']);
    for (const status of ['completed', 'cancelled', 'rejected'] as const) {
      expect(kinds(status), status).toEqual([]);
    }
  });

  it('never offers to accept an unconfirmed guest booking, nor any move past its deadline', () => {
    const guest = { status: 'pending' as const, user_id: null };
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString();
    const of = (b: Parameters<typeof actionsForBooking>[0]) =>
      actionsForBooking(b).map((a) => a.kind);
    expect(of({ ...guest, confirm_by: inAnHour, contact_confirmed_at: null })).toEqual([
      'reject',
      'cancel',
    ]);
    expect(of({ ...guest, confirm_by: anHourAgo, contact_confirmed_at: null })).toEqual([]);
    expect(of({ ...guest, confirm_by: anHourAgo, contact_confirmed_at: anHourAgo })).toEqual([
      'accept',
      'reject',
      'cancel',
    ]);
    expect(of({ status: 'expired', user_id: null })).toEqual([]);
    expect(kinds('expired')).toEqual([]);
  });

  it('moves to the status the server expects', () => {
    expect(Object.fromEntries(STAFF_ACTIONS.map((a) => [a.kind, a.to]))).toEqual({
      accept: 'reserved',
      reject: 'rejected',
      start: 'in_progress',
      complete: 'completed',
      cancel: 'cancelled',
    });
  });

  it('needs a reason to reject or cancel, never longer than the server stores', () => {
    const [accept, reject, , , cancel] = STAFF_ACTIONS;
    expect(reasonProblem(reject!, '')).toBe('reason_required');
    expect(reasonProblem(reject!, '   \n ')).toBe('reason_required');
    expect(reasonProblem(cancel!, '')).toBe('reason_required');
    expect(reasonProblem(reject!, 'Permis illisible')).toBeNull();
    expect(reasonProblem(accept!, '')).toBeNull();
    expect(reasonProblem(cancel!, 'x'.repeat(REASON_MAX))).toBeNull();
    expect(reasonProblem(cancel!, 'x'.repeat(REASON_MAX + 1))).toBe('reason_too_long');
  });
});
