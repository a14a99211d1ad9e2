import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Booking } from '@/domain/rows';
import { db } from '@/infra/db';
import { mergeServerBookings } from '@/sync/bookings-sync';
import { localBooking } from '@/sync/testing/bookings';

const USER = 'cccccccc-cccc-4ccc-8ccc-ccccccccccc1';
const ID = 'dddddddd-dddd-4ddd-8ddd-ddddddddddd1';

/** The server's row of a customer's booking (the device's copy has sync fields on top). */
function serverRow(status: Booking['status']): Booking {
  const {
    sync_state: _s,
    sync_error: _e,
    is_guest: _g,
    ...row
  } = localBooking({
    id: ID,
    user_id: USER,
  });
  return { ...row, status };
}

async function queueCancel(state: 'pending' | 'parked'): Promise<void> {
  await db.outbox.add({
    id: crypto.randomUUID(),
    kind: 'cancel_booking',
    payload: { booking_id: ID },
    owner: USER,
    depends_on: [],
    seq: 1,
    attempts: 0,
    next_attempt_at: 0,
    state,
    last_error: state === 'parked' ? 'invalid_status_transition' : null,
    created_at: 0,
  });
}

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

afterEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

describe('mergeServerBookings', () => {
  it('stores the server rows with their sync state', async () => {
    await mergeServerBookings([serverRow('pending'), { ...serverRow('reserved'), id: USER }]);
    expect(await db.bookings.get(ID)).toMatchObject({ status: 'pending', sync_state: 'awaiting' });
    expect(await db.bookings.get(USER)).toMatchObject({
      status: 'reserved',
      sync_state: 'confirmed',
      is_guest: false,
    });
  });

  it("keeps the server's status while a cancel waits to be sent (the outbox holds the intent)", async () => {
    await queueCancel('pending');
    await mergeServerBookings([serverRow('reserved')]);
    expect((await db.bookings.get(ID))?.status).toBe('reserved');
    expect(await db.outbox.where('kind').equals('cancel_booking').count()).toBe(1);
  });

  it("shows the server's status when the cancel was refused (parked)", async () => {
    await queueCancel('parked');
    await mergeServerBookings([serverRow('reserved')]);
    expect((await db.bookings.get(ID))?.status).toBe('reserved');
  });
});
