/**
 * The booking lifecycle after creation: the customer's cancel, the staff transitions and the
 * notification each one writes, and reviews (only the customer of a completed booking, once).
 */
import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import { testStack } from '../support/clients.ts';
import {
  adminClient,
  algiersAt,
  book,
  expectCode,
  newCar,
  newCustomer,
  staffMoves,
  visitor,
  type Customer,
  type Booking,
  type Notification,
} from '../support/fixtures.ts';
import { checkBookingFiles } from '../support/supabase.ts';

let car: string;
let customer: Customer;
let other: Customer;
let day = 0;

/** A new booking of the customer, on its own days of the test car. */
async function myBooking(): Promise<Booking> {
  day += 3;
  return book(
    customer.client,
    car,
    { start_at: algiersAt(day, 10), end_at: algiersAt(day + 2, 10) },
    true,
  );
}

async function notificationsOf(bookingId: string): Promise<Notification[]> {
  const { data, error } = await customer.client
    .from('notifications')
    .select('*')
    .eq('booking_id', bookingId)
    .order('created_at', { ascending: true });
  expect(error).toBeNull();
  return data as Notification[];
}

beforeAll(async () => {
  car = (await newCar()).id;
  customer = await newCustomer();
  other = await newCustomer();
});

describe('cancel_booking', () => {
  it('lets the customer cancel a pending booking, without notifying themself', async () => {
    const b = await myBooking();
    const { data, error } = await customer.client.rpc('cancel_booking', { booking_id: b.id });
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: b.id, status: 'cancelled' });
    expect(await notificationsOf(b.id)).toEqual([]);
    // A replay (from the outbox) returns the cancelled booking unchanged.
    const again = await customer.client.rpc('cancel_booking', { booking_id: b.id });
    expect(again.error).toBeNull();
    expect(again.data).toEqual(data);
  });

  it('lets the customer cancel a reserved booking', async () => {
    const b = await myBooking();
    await staffMoves(b.id, ['reserved']);
    const { data, error } = await customer.client.rpc('cancel_booking', { booking_id: b.id });
    expect(error).toBeNull();
    expect((data as Booking).status).toBe('cancelled');
  });

  it('refuses once the rental has started, is completed or was rejected', async () => {
    const started = await myBooking();
    await staffMoves(started.id, ['reserved', 'in_progress']);
    expectCode(
      (await customer.client.rpc('cancel_booking', { booking_id: started.id })).error,
      'invalid_status_transition',
    );
    await staffMoves(started.id, ['completed']);
    expectCode(
      (await customer.client.rpc('cancel_booking', { booking_id: started.id })).error,
      'invalid_status_transition',
    );
    const rejected = await myBooking();
    await staffMoves(rejected.id, ['rejected']);
    expectCode(
      (await customer.client.rpc('cancel_booking', { booking_id: rejected.id })).error,
      'invalid_status_transition',
    );
  });

  it('answers not_found for someone else’s booking or an unknown id, and leaves it alone', async () => {
    const b = await myBooking();
    expectCode((await other.client.rpc('cancel_booking', { booking_id: b.id })).error, 'not_found');
    expectCode(
      (await other.client.rpc('cancel_booking', { booking_id: randomUUID() })).error,
      'not_found',
    );
    const still = await customer.client.from('bookings').select('status').eq('id', b.id).single();
    expect(still.data?.status).toBe('pending');
  });

  it('is not open to guests: they contact the agency', async () => {
    const guest = visitor();
    const b = await book(guest, car, { start_at: algiersAt(200), end_at: algiersAt(201) });
    const { error } = await guest.rpc('cancel_booking', { booking_id: b.id });
    expect(error?.code).toBe('42501');
  });
});

describe('staff_set_booking_status', () => {
  it('walks pending → reserved → in_progress → completed, notifying the customer at each step', async () => {
    const b = await myBooking();
    await checkBookingFiles(testStack(), b.id);
    const admin = await adminClient();
    const steps: [string, string][] = [
      ['reserved', 'booking_accepted'],
      ['in_progress', 'booking_started'],
      ['completed', 'booking_completed'],
    ];
    for (const [status, type] of steps) {
      const { data, error } = await admin.rpc('staff_set_booking_status', {
        booking_id: b.id,
        status,
        reason: null,
      });
      expect(error).toBeNull();
      expect((data as Booking).status).toBe(status);
      const latest = (await notificationsOf(b.id)).at(-1);
      expect(latest).toMatchObject({
        user_id: customer.id,
        booking_id: b.id,
        type,
        is_read: false,
      });
    }
    expect((await notificationsOf(b.id)).map((n) => n.type)).toEqual([
      'booking_accepted',
      'booking_started',
      'booking_completed',
    ]);
  });

  it('rejects only with a reason, kept on the booking, and notifies booking_rejected', async () => {
    const b = await myBooking();
    const admin = await adminClient();
    for (const reason of [null, '   ']) {
      expectCode(
        (
          await admin.rpc('staff_set_booking_status', {
            booking_id: b.id,
            status: 'rejected',
            reason,
          })
        ).error,
        'reason_required',
      );
    }
    const { data, error } = await admin.rpc('staff_set_booking_status', {
      booking_id: b.id,
      status: 'rejected',
      reason: 'Permis illisible',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'rejected', status_reason: 'Permis illisible' });
    expect((await notificationsOf(b.id)).map((n) => n.type)).toEqual(['booking_rejected']);
    const mine = await customer.client
      .from('bookings')
      .select('status_reason')
      .eq('id', b.id)
      .single();
    expect(mine.data?.status_reason).toBe('Permis illisible');
  });

  it('cancels pending and reserved bookings with booking_cancelled', async () => {
    const admin = await adminClient();
    const pending = await myBooking();
    const reserved = await myBooking();
    await staffMoves(reserved.id, ['reserved']);
    for (const b of [pending, reserved]) {
      const { error } = await admin.rpc('staff_set_booking_status', {
        booking_id: b.id,
        status: 'cancelled',
        reason: 'Client injoignable',
      });
      expect(error).toBeNull();
      expect((await notificationsOf(b.id)).at(-1)?.type).toBe('booking_cancelled');
    }
  });

  it('refuses every other transition with invalid_status_transition', async () => {
    const admin = await adminClient();
    const b = await myBooking();
    const attempt = async (status: string | null) =>
      (await admin.rpc('staff_set_booking_status', { booking_id: b.id, status, reason: 'x' }))
        .error;
    // From pending.
    for (const s of ['in_progress', 'completed', 'pending', 'queued', null]) {
      expectCode(await attempt(s), 'invalid_status_transition');
    }
    await staffMoves(b.id, ['reserved']);
    for (const s of ['reserved', 'rejected', 'completed', 'pending']) {
      expectCode(await attempt(s), 'invalid_status_transition');
    }
    await staffMoves(b.id, ['in_progress']);
    for (const s of ['cancelled', 'reserved', 'rejected', 'in_progress']) {
      expectCode(await attempt(s), 'invalid_status_transition');
    }
    await staffMoves(b.id, ['completed']);
    for (const s of ['cancelled', 'in_progress', 'reserved', 'pending']) {
      expectCode(await attempt(s), 'invalid_status_transition');
    }
    const status = await customer.client.from('bookings').select('status').eq('id', b.id).single();
    expect(status.data?.status).toBe('completed');
  });

  it('is for staff only', async () => {
    const b = await myBooking();
    const asCustomer = await customer.client.rpc('staff_set_booking_status', {
      booking_id: b.id,
      status: 'reserved',
      reason: null,
    });
    expectCode(asCustomer.error, 'not_allowed');
    const asGuest = await visitor().rpc('staff_set_booking_status', {
      booking_id: b.id,
      status: 'reserved',
      reason: null,
    });
    expect(asGuest.error?.code).toBe('42501');
    const admin = await adminClient();
    expectCode(
      (
        await admin.rpc('staff_set_booking_status', {
          booking_id: randomUUID(),
          status: 'reserved',
          reason: null,
        })
      ).error,
      'not_found',
    );
    expect(await notificationsOf(b.id)).toEqual([]);
  });
});

describe('notifications', () => {
  it('are marked read by id, or all unread at once, and only is_read/updated_at may change', async () => {
    const b = await myBooking();
    await staffMoves(b.id, ['reserved', 'in_progress']);
    const [first, second] = await notificationsOf(b.id);

    const one = await customer.client
      .from('notifications')
      .update({ is_read: true, updated_at: new Date(0).toISOString() })
      .eq('id', first!.id)
      .select()
      .single();
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({ id: first!.id, is_read: true });
    // The server's clock sets updated_at, whatever the client sends (here: 1970).
    expect(Date.parse((one.data as Notification).updated_at)).toBeGreaterThanOrEqual(
      Date.parse(first!.created_at),
    );

    const all = await customer.client
      .from('notifications')
      .update({ is_read: true, updated_at: new Date().toISOString() })
      .eq('user_id', customer.id)
      .eq('is_read', false)
      .select('id');
    expect(all.error).toBeNull();
    expect(all.data?.map((n) => n.id)).toContain(second!.id);
    expect((await notificationsOf(b.id)).every((n) => n.is_read)).toBe(true);

    const retype = await customer.client
      .from('notifications')
      .update({ type: 'booking_completed' })
      .eq('id', first!.id);
    expect(retype.error?.code).toBe('42501');
  });
});

describe('submit_review', () => {
  let completed: Booking;

  beforeAll(async () => {
    completed = await myBooking();
    await staffMoves(completed.id, ['reserved', 'in_progress', 'completed']);
  });

  it('refuses a rating outside 1..5 and a comment over 1000 characters', async () => {
    for (const rating of [0, 6, -1]) {
      expectCode(
        (
          await customer.client.rpc('submit_review', {
            booking_id: completed.id,
            rating,
            comment: 'ok',
          })
        ).error,
        'invalid_rating',
      );
    }
    expectCode(
      (
        await customer.client.rpc('submit_review', {
          booking_id: completed.id,
          rating: 4,
          comment: 'x'.repeat(1001),
        })
      ).error,
      'comment_too_long',
    );
  });

  it('refuses someone else’s booking and a booking that is not completed', async () => {
    expectCode(
      (
        await other.client.rpc('submit_review', {
          booking_id: completed.id,
          rating: 5,
          comment: 'Top',
        })
      ).error,
      'review_not_allowed',
    );
    const pending = await myBooking();
    expectCode(
      (
        await customer.client.rpc('submit_review', {
          booking_id: pending.id,
          rating: 5,
          comment: 'Top',
        })
      ).error,
      'review_not_allowed',
    );
    await staffMoves(pending.id, ['reserved', 'in_progress']);
    expectCode(
      (
        await customer.client.rpc('submit_review', {
          booking_id: pending.id,
          rating: 5,
          comment: 'Top',
        })
      ).error,
      'review_not_allowed',
    );
    expect(
      (
        await visitor().rpc('submit_review', {
          booking_id: completed.id,
          rating: 5,
          comment: 'Top',
        })
      ).error?.code,
    ).toBe('42501');
  });

  it('accepts one review of a completed booking of one’s own, shown on the car page and in its stars', async () => {
    const before = await visitor()
      .from('cars')
      .select('rating_avg, rating_count, updated_at')
      .eq('id', car)
      .single();
    const { data, error } = await customer.client.rpc('submit_review', {
      booking_id: completed.id,
      rating: 4,
      comment: '  Très propre, agence réactive.  ',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      booking_id: completed.id,
      car_id: car,
      user_id: customer.id,
      rating: 4,
      comment: 'Très propre, agence réactive.',
    });

    // The same review again (an outbox replay) is accepted and changes nothing.
    const replay = await customer.client.rpc('submit_review', {
      booking_id: completed.id,
      rating: 4,
      comment: 'Très propre, agence réactive.',
    });
    expect(replay.error).toBeNull();
    expect(replay.data).toEqual(data);
    // A different second review is refused.
    expectCode(
      (
        await customer.client.rpc('submit_review', {
          booking_id: completed.id,
          rating: 1,
          comment: 'Changed my mind',
        })
      ).error,
      'already_reviewed',
    );

    const page = await visitor().from('car_reviews').select('*').eq('car_id', car);
    expect(page.data).toEqual([
      expect.objectContaining({
        rating: 4,
        comment: 'Très propre, agence réactive.',
        author_name: 'Lina B.',
      }),
    ]);
    expect(page.data?.[0]).not.toHaveProperty('user_id');
    expect(page.data?.[0]).not.toHaveProperty('booking_id');

    const after = await visitor()
      .from('cars')
      .select('rating_avg, rating_count, updated_at')
      .eq('id', car)
      .single();
    expect(before.data).toMatchObject({ rating_avg: null, rating_count: 0 });
    expect(after.data).toMatchObject({ rating_avg: 4, rating_count: 1 });
    // The catalogue delta carries the new stars: the car's cursor moved.
    expect(Date.parse(after.data!.updated_at)).toBeGreaterThan(Date.parse(before.data!.updated_at));
  });
});
