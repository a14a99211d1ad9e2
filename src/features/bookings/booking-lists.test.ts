import { describe, expect, it } from 'vitest';

import { stageOf } from '@/domain/booking-outcomes';
import type { OutboxEntry } from '@/infra/db';
import { localBooking as booking } from '@/sync/testing/bookings';

import {
  actionsFor,
  entriesByBooking,
  reviewViewOf,
  splitBookings,
  syncViewOf,
  tabOf,
} from '@/features/bookings/booking-lists';

let seq = 0;
function entry(
  kind: OutboxEntry['kind'],
  bookingId: string,
  overrides: Partial<OutboxEntry> = {},
): OutboxEntry {
  seq += 1;
  return {
    id: crypto.randomUUID(),
    kind,
    payload: kind === 'create_booking' ? { id: bookingId } : { booking_id: bookingId },
    depends_on: [],
    seq,
    attempts: 0,
    next_attempt_at: 0,
    state: 'pending',
    last_error: null,
    created_at: 0,
    ...overrides,
  };
}

const review = { booking_id: 'b', rating: 4, comment: null, created_at: '2027-03-20T10:00:00Z' };

describe('tabs', () => {
  it('puts bookings ahead, under way or needing the customer under current; the rest under past', () => {
    const current = ['queued', 'sync_failed', 'pending', 'reserved', 'in_progress'] as const;
    const past = ['completed', 'cancelled', 'rejected'] as const;
    for (const status of current) expect(tabOf({ status }), status).toBe('current');
    for (const status of past) expect(tabOf({ status }), status).toBe('past');
  });

  it('keeps a booking whose cancellation waits in the outbox under current until the server took it', () => {
    const b = booking({ reference: 'KR-AAAA-0009', status: 'reserved' });
    const waiting = entry('cancel_booking', b.id);
    expect(tabOf(b, { cancel: waiting })).toBe('current');
    // Even a device that wrote "cancelled" early (before issue 20) keeps it current meanwhile.
    expect(tabOf({ status: 'cancelled' }, { cancel: waiting })).toBe('current');
    // Taken by the server: the entry is gone and the status says cancelled.
    expect(splitBookings([{ ...b, status: 'cancelled' }], new Map()).past).toHaveLength(1);
    expect(splitBookings([b], new Map([[b.id, { cancel: waiting }]])).current).toEqual([b]);
    // Refused (parked): the true status decides (here the rental started: still current).
    const refused = entry('cancel_booking', b.id, { state: 'parked', last_error: 'x' });
    expect(tabOf({ status: 'in_progress' }, { cancel: refused })).toBe('current');
    expect(tabOf({ status: 'completed' }, { cancel: refused })).toBe('past');
  });

  it('lists current bookings needing attention first, then by pickup; past ones latest first', () => {
    const soon = booking({ reference: 'KR-AAAA-0001', start_at: '2027-03-01T09:00:00Z' });
    const later = booking({ reference: 'KR-AAAA-0002', start_at: '2027-04-01T09:00:00Z' });
    const failed = booking({
      reference: 'KR-AAAA-0003',
      status: 'sync_failed',
      sync_state: 'needs_attention',
      start_at: '2027-05-01T09:00:00Z',
    });
    // Offsets differ: the instants decide, not the text.
    const queued = booking({
      reference: 'KR-AAAA-0004',
      status: 'queued',
      sync_state: 'queued',
      start_at: '2027-03-01T09:30:00+01:00',
    });
    const oldDone = booking({ status: 'completed', start_at: '2026-01-01T09:00:00Z' });
    const newDone = booking({ status: 'cancelled', start_at: '2026-06-01T09:00:00Z' });
    const rejected = booking({ status: 'rejected', start_at: '2026-03-01T09:00:00Z' });

    const { current, past } = splitBookings([
      later,
      oldDone,
      soon,
      failed,
      newDone,
      queued,
      rejected,
    ]);
    expect(current.map((b) => b.reference)).toEqual([
      'KR-AAAA-0003',
      'KR-AAAA-0004',
      'KR-AAAA-0001',
      'KR-AAAA-0002',
    ]);
    expect(past).toEqual([newDone, rejected, oldDone]);
  });
});

describe('outbox entries by booking', () => {
  it('groups create, cancel and review entries by booking, the newest of a kind winning', () => {
    const a = 'a';
    const first = entry('submit_review', a, { state: 'parked' });
    const retried = entry('submit_review', a);
    const create = entry('create_booking', 'b');
    const cancel = entry('cancel_booking', 'b');
    const read = entry('mark_notification_read', a);
    const map = entriesByBooking([retried, first, create, cancel, read]);
    expect(map.get(a)).toEqual({ review: retried });
    expect(map.get('b')).toEqual({ create, cancel });
    expect(map.size).toBe(2);
  });
});

describe('what the customer may do', () => {
  it('cancels pending and reserved bookings through the server, and drops unsent ones', () => {
    expect(actionsFor(booking({ status: 'pending' }), {}, undefined).cancel).toBe('cancel');
    expect(actionsFor(booking({ status: 'reserved' }), {}, undefined).cancel).toBe('cancel');
    expect(actionsFor(booking({ status: 'queued' }), {}, undefined).cancel).toBe('discard');
    expect(actionsFor(booking({ status: 'sync_failed' }), {}, undefined).cancel).toBe('discard');
    for (const status of ['in_progress', 'completed', 'cancelled', 'rejected'] as const) {
      expect(actionsFor(booking({ status }), {}, undefined).cancel, status).toBeNull();
    }
  });

  it('does not offer a second cancellation while one waits or was refused', () => {
    const b = booking({ status: 'reserved' });
    expect(actionsFor(b, { cancel: entry('cancel_booking', b.id) }, undefined).cancel).toBeNull();
    const refused = entry('cancel_booking', b.id, { state: 'parked' });
    expect(actionsFor(b, { cancel: refused }, undefined).cancel).toBeNull();
  });

  it('offers a review only for a completed booking of an account, without one, once', () => {
    const done = booking({ status: 'completed' });
    expect(actionsFor(done, {}, undefined).review).toBe(true);
    expect(actionsFor(done, {}, { ...review, booking_id: done.id }).review).toBe(false);
    expect(actionsFor(done, { review: entry('submit_review', done.id) }, undefined).review).toBe(
      false,
    );
    expect(
      actionsFor(done, { review: entry('submit_review', done.id, { state: 'parked' }) }, undefined)
        .review,
    ).toBe(false);
    expect(actionsFor(booking({ status: 'completed', user_id: null }), {}, undefined).review).toBe(
      false,
    );
    for (const status of ['pending', 'reserved', 'in_progress', 'cancelled', 'rejected'] as const) {
      expect(actionsFor(booking({ status }), {}, undefined).review, status).toBe(false);
    }
  });
});

describe('sync state shown on the card', () => {
  it('follows the booking on its way to the server', () => {
    expect(syncViewOf(booking({ status: 'queued', sync_state: 'queued' }), {})).toEqual({
      kind: 'queued',
    });
    expect(syncViewOf(booking({ status: 'queued', sync_state: 'sending' }), {})).toEqual({
      kind: 'sending',
    });
    expect(syncViewOf(booking({ status: 'pending', sync_state: 'awaiting' }), {})).toEqual({
      kind: 'awaiting',
    });
    expect(syncViewOf(booking({ status: 'reserved', sync_state: 'confirmed' }), {})).toEqual({
      kind: 'confirmed',
    });
    expect(syncViewOf(booking({ status: 'completed', sync_state: 'confirmed' }), {})).toBeNull();
    expect(syncViewOf(booking({ status: 'cancelled', sync_state: 'awaiting' }), {})).toBeNull();
  });

  it('reads the stage as the badge does: a guest past its deadline is expired, not awaiting', () => {
    const guest = booking({
      status: 'pending',
      sync_state: 'awaiting',
      user_id: null,
      confirm_by: '2026-03-01T12:00:00Z',
      contact_confirmed_at: null,
    });
    const before = Date.parse('2026-03-01T11:59:00Z');
    const after = Date.parse('2026-03-01T12:00:00Z');
    expect(syncViewOf(guest, {}, before)).toEqual({ kind: 'awaiting' });
    expect(stageOf(guest, after)).toBe('expired');
    expect(syncViewOf(guest, {}, after)).toBeNull();
  });

  it('says what the server refused, with the reason and the parked entry', () => {
    const b = booking({
      status: 'sync_failed',
      sync_state: 'needs_attention',
      sync_error: 'car_unavailable',
    });
    const create = entry('create_booking', b.id, {
      state: 'parked',
      last_error: 'car_unavailable',
    });
    expect(syncViewOf(b, { create })).toEqual({
      kind: 'needs_attention',
      code: 'car_unavailable',
      entry: create,
    });
  });

  it('shows a queued cancellation, then its refusal', () => {
    const b = booking({ status: 'cancelled' });
    expect(syncViewOf(b, { cancel: entry('cancel_booking', b.id) })).toEqual({
      kind: 'cancel_queued',
    });
    const refused = entry('cancel_booking', b.id, {
      state: 'parked',
      last_error: 'invalid_status_transition',
    });
    expect(syncViewOf(booking({ status: 'in_progress' }), { cancel: refused })).toEqual({
      kind: 'cancel_refused',
      code: 'invalid_status_transition',
      entry: refused,
    });
  });
});

describe('review shown on the card', () => {
  it('is none, queued, sent or refused', () => {
    expect(reviewViewOf({}, undefined)).toEqual({ kind: 'none' });
    expect(reviewViewOf({ review: entry('submit_review', 'b') }, review)).toEqual({
      kind: 'queued',
      review,
    });
    expect(reviewViewOf({}, review)).toEqual({ kind: 'sent', review });
    const parked = entry('submit_review', 'b', {
      state: 'parked',
      last_error: 'review_not_allowed',
    });
    expect(reviewViewOf({ review: parked }, review)).toEqual({
      kind: 'refused',
      code: 'review_not_allowed',
      entry: parked,
      review,
    });
  });
});
