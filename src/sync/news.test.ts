import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { db } from '@/infra/db';
import { refreshGuestBookings } from '@/sync/guest-refresh';
import {
  applyPushMessage,
  isPushMessage,
  statusNotificationType,
  type PushMessage,
} from '@/sync/news';
import { localBooking } from '@/sync/testing/bookings';

vi.mock('@/infra/supabase', () => ({ supabase: {}, guestClient: () => ({}) }));

function message(overrides: Partial<PushMessage> = {}): PushMessage {
  return {
    v: 1,
    type: 'booking_accepted',
    audience: 'customer',
    booking_id: 'b1',
    reference: 'KR-7K3M-9QXD',
    reason: null,
    reason_code: null,
    notification_id: 'n1',
    locale: 'fr',
    url: '/mybookings?booking=b1',
    at: '2027-03-01T10:00:00.000Z',
    ...overrides,
  };
}

function guestBooking(id: string, status: string, start: string) {
  return localBooking({
    id,
    reference: `KR-0000-000${id.slice(-1)}`,
    user_id: null,
    guest_email: `${id}@kiraa.test`,
    status: status as never,
    sync_state: status === 'pending' ? 'awaiting' : 'confirmed',
    is_guest: true,
    start_at: start,
  });
}

/** A client whose `find_guest_bookings` answers `answer`, recording the items asked for. */
function fakeClient(answer: (items: Array<{ reference: string }>) => unknown) {
  const calls: Array<Array<{ reference: string; contact: string }>> = [];
  const client = {
    rpc: (name: string, args: { items: Array<{ reference: string; contact: string }> }) => {
      expect(name).toBe('find_guest_bookings');
      calls.push(args.items);
      return Promise.resolve({ data: answer(args.items), error: null });
    },
  };
  return { client: client as unknown as SupabaseClient, calls };
}

beforeEach(async () => {
  await Promise.all([db.bookings.clear(), db.notifications.clear(), db.meta.clear()]);
});

describe('push messages', () => {
  it('accepts only the payload push-send writes', () => {
    expect(isPushMessage(message())).toBe(true);
    expect(isPushMessage({ ...message(), v: 2 })).toBe(false);
    expect(isPushMessage({ ...message(), url: 'https://elsewhere.example/' })).toBe(false);
    expect(isPushMessage({ ...message(), audience: 'staff' })).toBe(false);
    expect(isPushMessage(null)).toBe(false);
  });

  it("stores a customer's notification unread, once, for the signed-in user only", async () => {
    await applyPushMessage(message(), null);
    expect(await db.notifications.count()).toBe(0);
    await applyPushMessage(message(), 'u1');
    await db.notifications.update('n1', { is_read: true });
    await applyPushMessage(message(), 'u1');
    expect(await db.notifications.toArray()).toEqual([
      expect.objectContaining({ id: 'n1', user_id: 'u1', type: 'booking_accepted', is_read: true }),
    ]);
  });

  it("moves a guest booking stored here to the status the message names, with staff's reason", async () => {
    await db.bookings.put(guestBooking('g1', 'pending', '2027-03-10T09:00:00Z'));
    await applyPushMessage(
      message({ audience: 'guest', booking_id: 'g1', type: 'booking_rejected', reason: 'Panne' }),
      null,
    );
    expect(await db.bookings.get('g1')).toMatchObject({
      status: 'rejected',
      status_reason: 'Panne',
      sync_state: 'confirmed',
    });
    expect(statusNotificationType('reserved')).toBe('booking_accepted');
    expect(statusNotificationType('expired')).toBe('booking_expired');
  });
});

describe('refreshGuestBookings', () => {
  it('asks for every live guest booking of the device in one call, soonest first, at most 10', async () => {
    for (let i = 0; i < 12; i++) {
      await db.bookings.put(
        guestBooking(`g${i}`, 'pending', `2027-03-${String(10 + i)}T09:00:00Z`),
      );
    }
    await db.bookings.put(guestBooking('done', 'completed', '2027-01-01T09:00:00Z'));
    await db.bookings.put(localBooking({ id: 'mine', user_id: 'u1' }));
    const { client, calls } = fakeClient(() => []);
    await refreshGuestBookings(client);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.map((i) => i.reference)).toHaveLength(10);
    expect(calls[0]![0]).toEqual({ reference: 'KR-0000-0000', contact: 'g0@kiraa.test' });
  });

  it('makes no call without live guest bookings, and keeps what the server answers', async () => {
    const none = fakeClient(() => []);
    expect(await refreshGuestBookings(none.client)).toEqual({ ok: true, changed: [] });
    expect(none.calls).toHaveLength(0);

    const stored = guestBooking('g1', 'pending', '2027-03-10T09:00:00Z');
    await db.bookings.put(stored);
    const { sync_state: _s, sync_error: _e, is_guest: _g, ...row } = stored;
    const { client } = fakeClient(() => [
      { reference: stored.reference, booking: { ...row, status: 'reserved' } },
    ]);
    const result = await refreshGuestBookings(client);
    expect(result.changed.map((c) => [c.before.status, c.after.status])).toEqual([
      ['pending', 'reserved'],
    ]);
    expect(await db.bookings.get('g1')).toMatchObject({ status: 'reserved', is_guest: true });
  });
});
