/**
 * Blocked periods (supabase/migrations/20261126460000_car_blocks.sql, docs/fleet.md): staff block
 * a car with a reason; a block and a booking never overlap (one EXCLUDE constraint over
 * internal.car_holds, even under a race); customers see blocks as busy periods; staff see what a
 * block would meet before saving. Every write refused to customers and anon.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { sql } from '../support/clients.ts';
import {
  adminClient,
  algiersAt,
  book,
  bookingWithLicence,
  confirmContact,
  createBooking,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  visitor,
  type Booking,
  type Customer,
} from '../support/fixtures.ts';

type Block = {
  id: string;
  car_id: string;
  start_at: string;
  end_at: string;
  reason: string;
  created_by: string | null;
  created_at: string;
};

type Collision = {
  kind: 'booking' | 'block';
  id: string;
  reference: string | null;
  status: string | null;
  from_at: string;
  to_at: string;
  holds: boolean;
  reason: string | null;
};

let admin: SupabaseClient;
let customer: Customer;

beforeAll(async () => {
  admin = await adminClient();
  customer = await newCustomer();
});

async function block(carId: string, from: string, to: string, reason = 'Vidange') {
  return admin.rpc('staff_block_car', { car_id: carId, start_at: from, end_at: to, reason });
}

async function busyOf(carId: string): Promise<{ start_at: string; end_at: string }[]> {
  const { data, error } = await visitor().rpc('car_busy_periods', {
    from: algiersAt(0),
    to: algiersAt(120),
  });
  expect(error).toBeNull();
  return (data as { car_id: string; start_at: string; end_at: string }[])
    .filter((r) => r.car_id === carId)
    .map(({ start_at, end_at }) => ({ start_at, end_at }));
}

const same = (a: string, b: string) => new Date(a).getTime() === new Date(b).getTime();

describe('staff_block_car', () => {
  it('blocks a car and returns the block; customers see the period busy, without the reason', async () => {
    const car = await newCar();
    const { data, error } = await block(car.id, algiersAt(20, 8), algiersAt(23, 18), ' Garage ');
    expect(error).toBeNull();
    const k = data as Block;
    expect(k).toMatchObject({ car_id: car.id, reason: 'Garage' });
    expect(same(k.start_at, algiersAt(20, 8))).toBe(true);
    expect(k.created_by).not.toBeNull();
    const busy = await busyOf(car.id);
    expect(busy).toHaveLength(1);
    expect(Object.keys(busy[0]!).sort()).toEqual(['end_at', 'start_at']);
    expect(same(busy[0]!.end_at, algiersAt(23, 18))).toBe(true);
    // Staff read it; customers and anon do not.
    expect((await admin.from('car_blocks').select('id').eq('id', k.id)).data).toHaveLength(1);
    expect((await customer.client.from('car_blocks').select('id')).data).toEqual([]);
    expect((await visitor().from('car_blocks').select('id')).data ?? []).toEqual([]);
  });

  it('refuses bad input with coded errors', async () => {
    const car = await newCar();
    expectCode((await block(car.id, algiersAt(5), algiersAt(4))).error, 'invalid_period');
    expectCode((await block(car.id, algiersAt(-5), algiersAt(-4))).error, 'block_in_past');
    expectCode((await block(car.id, algiersAt(1), algiersAt(400))).error, 'block_too_long');
    expectCode((await block(car.id, algiersAt(1), algiersAt(2), '   ')).error, 'reason_required');
    expectCode(
      (await block(car.id, algiersAt(1), algiersAt(2), 'x'.repeat(301))).error,
      'reason_too_long',
    );
    expectCode((await block(car.id, algiersAt(1), algiersAt(2), 'a\u202eb')).error, 'invalid_text');
    expectCode(
      (await block('00000000-0000-4000-8000-000000000000', algiersAt(1), algiersAt(2))).error,
      'car_not_found',
    );
  });

  it('is refused to customers and anon, and nobody writes car_blocks directly', async () => {
    const car = await newCar();
    const args = { car_id: car.id, start_at: algiersAt(3), end_at: algiersAt(4), reason: 'x' };
    expectCode((await customer.client.rpc('staff_block_car', args)).error, 'not_allowed');
    expectDenied((await visitor().rpc('staff_block_car', args)).error);
    const k = (await block(car.id, algiersAt(3), algiersAt(4))).data as Block;
    expectCode(
      (await customer.client.rpc('staff_unblock_car', { block_id: k.id })).error,
      'not_allowed',
    );
    expectDenied((await visitor().rpc('staff_unblock_car', { block_id: k.id })).error);
    const window = { car_id: car.id, start_at: algiersAt(1), end_at: algiersAt(9) };
    expectCode((await customer.client.rpc('staff_block_collisions', window)).error, 'not_allowed');
    expectDenied((await visitor().rpc('staff_block_collisions', window)).error);
    for (const client of [customer.client, admin]) {
      expectDenied(
        (
          await client.from('car_blocks').insert({
            car_id: car.id,
            start_at: algiersAt(30),
            end_at: algiersAt(31),
            reason: 'x',
          })
        ).error,
      );
      const upd = await client
        .from('car_blocks')
        .update({ end_at: algiersAt(40) })
        .eq('id', k.id)
        .select();
      expect(upd.error ?? upd.data?.length === 0).toBeTruthy();
      const del = await client.from('car_blocks').delete().eq('id', k.id).select();
      expect(del.error ?? del.data?.length === 0).toBeTruthy();
    }
    expect(await busyOf(car.id)).toHaveLength(1);
  });

  it('unblocks: the car is free again', async () => {
    const car = await newCar();
    const k = (await block(car.id, algiersAt(6), algiersAt(8))).data as Block;
    const gone = await admin.rpc('staff_unblock_car', { block_id: k.id });
    expect(gone.error).toBeNull();
    expect((gone.data as Block).id).toBe(k.id);
    expect(await busyOf(car.id)).toEqual([]);
    expectCode((await admin.rpc('staff_unblock_car', { block_id: k.id })).error, 'not_found');
    await book(customer.client, car.id, { start_at: algiersAt(6), end_at: algiersAt(8) }, true);
  });
});

describe('a block and a booking never overlap', () => {
  it('refuses a block over a booking that holds the car, and a booking over a block', async () => {
    const car = await newCar();
    const held = await book(
      customer.client,
      car.id,
      { start_at: algiersAt(10), end_at: algiersAt(12) },
      true,
    );
    expectCode((await block(car.id, algiersAt(11), algiersAt(13))).error, 'block_collides');
    // Back to back is fine: [) periods.
    expect((await block(car.id, algiersAt(12), algiersAt(14))).error).toBeNull();
    // Two blocks do not overlap either.
    expectCode((await block(car.id, algiersAt(13), algiersAt(15))).error, 'block_collides');

    const customerTry = await createBooking(
      customer.client,
      await bookingWithLicence(
        customer.client,
        car.id,
        { start_at: algiersAt(13), end_at: algiersAt(16) },
        true,
      ),
    );
    expectCode(customerTry.error, 'car_unavailable');
    // A guest booking (holding nothing until its code) is refused on a blocked car too.
    const guest = visitor();
    const guestTry = await createBooking(
      guest,
      await bookingWithLicence(guest, car.id, { start_at: algiersAt(13), end_at: algiersAt(14) }),
    );
    expectCode(guestTry.error, 'car_unavailable');
    // The booking that was there first is untouched.
    expect(held.status).toBe('pending');
    expect(await busyOf(car.id)).toHaveLength(2);
  });

  it('a guest booking waiting for its code cannot be confirmed once the car is blocked', async () => {
    const car = await newCar();
    const guest = visitor();
    const waiting = await book(
      guest,
      car.id,
      { start_at: algiersAt(40), end_at: algiersAt(42) },
      false,
      { confirm: false },
    );
    const preview = await admin.rpc('staff_block_collisions', {
      car_id: car.id,
      start_at: algiersAt(41),
      end_at: algiersAt(43),
    });
    expect(preview.error).toBeNull();
    expect(preview.data as Collision[]).toEqual([
      expect.objectContaining({
        kind: 'booking',
        id: waiting.id,
        reference: waiting.reference,
        status: 'pending',
        holds: false,
      }),
    ]);
    // It holds nothing yet: the block is taken, and the guest's code then finds the car gone.
    expect((await block(car.id, algiersAt(41), algiersAt(43))).error).toBeNull();
    await expect(confirmContact(waiting)).rejects.toThrow(/car_unavailable/);
  });

  it('shows staff the bookings and blocks a block would meet', async () => {
    const car = await newCar();
    const b = await book(
      customer.client,
      car.id,
      { start_at: algiersAt(50), end_at: algiersAt(52) },
      true,
    );
    const k = (await block(car.id, algiersAt(53), algiersAt(54), 'Pneus')).data as Block;
    const { data, error } = await admin.rpc('staff_block_collisions', {
      car_id: car.id,
      start_at: algiersAt(49),
      end_at: algiersAt(60),
    });
    expect(error).toBeNull();
    const rows = data as Collision[];
    expect(rows.map((r) => [r.kind, r.id, r.holds])).toEqual([
      ['booking', b.id, true],
      ['block', k.id, true],
    ]);
    expect(rows[0]!.reference).toBe(b.reference);
    expect(rows[1]!.reason).toBe('Pneus');
    // A cancelled booking no longer collides.
    await customer.client.rpc('cancel_booking', { booking_id: b.id });
    const after = await admin.rpc('staff_block_collisions', {
      car_id: car.id,
      start_at: algiersAt(49),
      end_at: algiersAt(53),
    });
    expect(after.data).toEqual([]);
    expect((await block(car.id, algiersAt(49), algiersAt(53))).error).toBeNull();
  });

  it('under a race of blocks and bookings over one period, exactly one wins', async () => {
    const car = await newCar();
    const customers = await Promise.all(Array.from({ length: 5 }, () => newCustomer()));
    const payloads = await Promise.all(
      customers.map((c, i) =>
        bookingWithLicence(
          c.client,
          car.id,
          { start_at: algiersAt(70, 10, i), end_at: algiersAt(72, 10) },
          true,
        ),
      ),
    );
    const results = await Promise.all([
      ...payloads.map((p, i) => createBooking(customers[i]!.client, p)),
      ...Array.from({ length: 5 }, (_, i) => block(car.id, algiersAt(71, 8, i), algiersAt(73, 8))),
    ]);
    const bookingResults = results.slice(0, 5);
    const blockResults = results.slice(5);
    const won = results.filter((r) => r.error === null);
    expect(won).toHaveLength(1);
    for (const r of bookingResults.filter((x) => x.error !== null)) {
      expectCode(r.error, 'car_unavailable');
    }
    for (const r of blockResults.filter((x) => x.error !== null)) {
      expectCode(r.error, 'block_collides');
    }
    expect(await busyOf(car.id)).toHaveLength(1);
    const holds = await sql<{ n: number }>(
      'select count(*)::int as n from internal.car_holds where car_id = $1',
      [car.id],
    );
    expect(holds[0]!.n).toBe(1);
  });

  it('a booking that stops holding frees the car for a block (the hold follows the status)', async () => {
    const car = await newCar();
    const b: Booking = await book(
      customer.client,
      car.id,
      { start_at: algiersAt(80), end_at: algiersAt(82) },
      true,
    );
    expectCode((await block(car.id, algiersAt(80), algiersAt(81))).error, 'block_collides');
    const rejected = await admin.rpc('staff_set_booking_status', {
      booking_id: b.id,
      status: 'rejected',
      reason: 'Véhicule au garage',
    });
    expect(rejected.error).toBeNull();
    expect((await block(car.id, algiersAt(80), algiersAt(81))).error).toBeNull();
  });
});
