import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Booking } from '@/lib/database.types';
import { mergeServerBookings } from '@/sync/bookings-sync';
import { db } from '@/sync/db';

const USER = 'cccccccc-cccc-4ccc-8ccc-ccccccccccc1';
const ID = 'dddddddd-dddd-4ddd-8ddd-ddddddddddd1';

function serverRow(status: Booking['status']): Booking {
  return {
    id: ID,
    reference: 'KR-4821-7QXF',
    user_id: USER,
    guest_name: null,
    guest_phone: null,
    guest_email: null,
    car_id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee1',
    start_at: '2030-03-12T09:00:00Z',
    end_at: '2030-03-14T09:00:00Z',
    pickup_location_id: 'ffffffff-ffff-4fff-8fff-fffffffffff1',
    dropoff_location_id: 'ffffffff-ffff-4fff-8fff-fffffffffff1',
    driver_option: 'self',
    license_path: `${ID}/licence.pdf`,
    flight_document_path: null,
    from_abroad: false,
    additional_requests: null,
    extras: [],
    insurance: ['civil_liability'],
    payment_method: 'cash',
    payment_status: 'unpaid',
    price: {
      days: 2,
      base: 9000,
      extras_total: 0,
      insurance_total: 0,
      driver_total: 0,
      pickup_fee: 0,
      dropoff_fee: 0,
      subtotal: 9000,
      deposit: 30000,
      total: 9000,
      currency: 'DZD',
    },
    total_dzd: 9000,
    notes: null,
    status,
    status_reason: null,
    created_at: '2030-01-01T10:00:00Z',
    updated_at: '2030-01-02T10:00:00Z',
  };
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

  it('keeps a booking cancelled while its cancel waits to be sent', async () => {
    await queueCancel('pending');
    await mergeServerBookings([serverRow('reserved')]);
    expect((await db.bookings.get(ID))?.status).toBe('cancelled');
  });

  it("shows the server's status when the cancel was refused (parked)", async () => {
    await queueCancel('parked');
    await mergeServerBookings([serverRow('reserved')]);
    expect((await db.bookings.get(ID))?.status).toBe('reserved');
  });
});
