import { afterEach, describe, expect, it } from 'vitest';

import { db } from '@/infra/db';
import { localBooking } from '@/sync/testing/bookings';

import { joinableGuestBookings } from '@/features/booking/join-account-api';

afterEach(async () => {
  await db.bookings.clear();
});

const guest = (id: string, overrides: Parameters<typeof localBooking>[0] = {}) =>
  localBooking({
    id,
    reference: `KR-0000-000${id.slice(-1)}`,
    user_id: null,
    is_guest: true,
    guest_email: 'Amina@Example.com',
    status: 'pending',
    sync_state: 'awaiting',
    ...overrides,
  });

describe('the guest bookings a new account asks to join', () => {
  it('names this device’s guest bookings of the address that reached the server, the current one first, then the newest', async () => {
    await db.bookings.bulkPut([
      guest('b1', { created_at: '2026-11-01T10:00:00Z' }),
      guest('b2', { created_at: '2026-11-03T10:00:00Z', status: 'completed' }),
      guest('b3', { created_at: '2026-11-02T10:00:00Z' }),
      // Found by a lookup: its id came from the server for this address, it may join too.
      guest('b4', { created_at: '2026-10-01T10:00:00Z', looked_up: true }),
    ]);
    const ids = (await joinableGuestBookings(' amina@example.com ', 'b1')).map((b) => b.id);
    expect(ids).toEqual(['b1', 'b2', 'b3', 'b4']);
  });

  it('leaves out another address, a customer’s booking, one not sent yet, one refused, one expired', async () => {
    await db.bookings.bulkPut([
      guest('c1', { guest_email: 'other@example.com' }),
      guest('c2', { user_id: 'u1', is_guest: false }),
      guest('c3', { status: 'queued', sync_state: 'queued' }),
      guest('c4', { status: 'sync_failed', sync_state: 'needs_attention' }),
      guest('c5', { status: 'expired' }),
      guest('c6'),
    ]);
    expect((await joinableGuestBookings('amina@example.com')).map((b) => b.id)).toEqual(['c6']);
  });

  it('names at most 10 (the server’s maximum), the newest', async () => {
    await db.bookings.bulkPut(
      Array.from({ length: 12 }, (_, i) =>
        guest(`d${String(i).padStart(2, '0')}`, {
          created_at: `2026-11-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
        }),
      ),
    );
    const ids = (await joinableGuestBookings('amina@example.com')).map((b) => b.id);
    expect(ids).toHaveLength(10);
    expect(ids[0]).toBe('d11');
    expect(ids).not.toContain('d00');
  });
});
