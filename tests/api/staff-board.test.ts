/**
 * What the staff board reads beyond the bookings table (supabase/migrations/…001700_staff_board):
 * the status history written by triggers (who, when, why) and the contact of signed-in
 * customers — both for staff only.
 */
import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  SEED,
  adminClient,
  algiersAt,
  book,
  confirmContact,
  expectCode,
  newCar,
  newCustomer,
  randomIp,
  staffMoves,
  storedBooking,
  visitor,
  type Booking,
  type Customer,
} from '../support/fixtures.ts';

type BookingEvent = {
  id: number;
  booking_id: string;
  status: string;
  reason: string | null;
  actor: string;
  actor_id: string | null;
  created_at: string;
};

let car: string;
let customer: Customer;
let day = 0;

async function myBooking(): Promise<Booking> {
  day += 3;
  return book(
    customer.client,
    car,
    { start_at: algiersAt(day, 10), end_at: algiersAt(day + 2, 10) },
    true,
  );
}

async function historyOf(bookingId: string): Promise<BookingEvent[]> {
  const admin = await adminClient();
  const { data, error } = await admin
    .from('booking_events')
    .select('*')
    .eq('booking_id', bookingId)
    .order('created_at')
    .order('id');
  expect(error).toBeNull();
  return data as BookingEvent[];
}

beforeAll(async () => {
  car = (await newCar()).id;
  customer = await newCustomer();
});

describe('booking_events', () => {
  it('records the creation, each staff move with its reason and staff member, and the customer’s cancel', async () => {
    const b = await myBooking();
    await staffMoves(b.id, ['reserved']);
    const admin = await adminClient();
    const { error } = await customer.client.rpc('cancel_booking', { booking_id: b.id });
    expect(error).toBeNull();

    const history = await historyOf(b.id);
    expect(
      history.map(({ status, actor, actor_id, reason }) => ({ status, actor, actor_id, reason })),
    ).toEqual([
      { status: 'pending', actor: 'customer', actor_id: customer.id, reason: null },
      { status: 'reserved', actor: 'staff', actor_id: SEED.users.admin, reason: null },
      { status: 'cancelled', actor: 'customer', actor_id: customer.id, reason: null },
    ]);
    const times = history.map((e) => Date.parse(e.created_at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);

    const rejected = await myBooking();
    const refusal = await admin.rpc('staff_set_booking_status', {
      booking_id: rejected.id,
      status: 'rejected',
      reason: 'Permis illisible',
    });
    expect(refusal.error).toBeNull();
    expect((await historyOf(rejected.id)).at(-1)).toMatchObject({
      status: 'rejected',
      reason: 'Permis illisible',
      actor: 'staff',
    });
  });

  it('records a guest booking as made by a guest, without an id', async () => {
    const guest = visitor();
    const b = await book(guest, car, { start_at: algiersAt(300), end_at: algiersAt(301) });
    expect(await historyOf(b.id)).toMatchObject([
      { status: 'pending', actor: 'guest', actor_id: null },
    ]);
  });

  it('writes nothing when a refused move changes nothing', async () => {
    const b = await myBooking();
    const admin = await adminClient();
    const { error } = await admin.rpc('staff_set_booking_status', {
      booking_id: b.id,
      status: 'completed',
      reason: null,
    });
    expectCode(error, 'invalid_status_transition');
    expect((await historyOf(b.id)).map((e) => e.status)).toEqual(['pending']);
  });

  it('gives the seed’s bookings a history too', async () => {
    const admin = await adminClient();
    const { data: completed } = await admin
      .from('bookings')
      .select('id')
      .eq('user_id', SEED.users.customer)
      .eq('status', 'completed')
      .limit(1)
      .single();
    const history = await historyOf((completed as { id: string }).id);
    expect(history.map((e) => e.status)).toEqual(['pending', 'completed']);
  });

  it('is read by staff only: customers and visitors see nothing, nobody writes', async () => {
    const b = await myBooking();
    const own = await customer.client.from('booking_events').select('*').eq('booking_id', b.id);
    expect(own.error).toBeNull();
    expect(own.data).toEqual([]);
    const anon = await visitor().from('booking_events').select('*');
    expect(anon.error?.code).toBe('42501');

    const admin = await adminClient();
    for (const client of [customer.client, admin]) {
      const insert = await client
        .from('booking_events')
        .insert({ booking_id: b.id, status: 'completed', actor: 'staff' });
      expect(insert.error?.code).toBe('42501');
      const del = await client.from('booking_events').delete().eq('booking_id', b.id);
      expect(del.error?.code).toBe('42501');
    }
    expect(await historyOf(b.id)).toHaveLength(1);
  });
});

describe('staff_customer_contacts', () => {
  it('gives staff the name, phone and account email of customers', async () => {
    const admin = await adminClient();
    const { data, error } = await admin.rpc('staff_customer_contacts', {
      user_ids: [customer.id, SEED.users.customer],
    });
    expect(error).toBeNull();
    const byId = new Map((data as { id: string }[]).map((row) => [row.id, row]));
    expect(byId.get(customer.id)).toEqual({
      id: customer.id,
      full_name: 'Lina Bouzid',
      phone: '+213555000111',
      email: customer.email,
    });
    expect(byId.get(SEED.users.customer)).toMatchObject({ email: 'client@kiraa.dz' });
    expect(byId.size).toBe(2);
  });

  it('refuses customers and visitors', async () => {
    const mine = await customer.client.rpc('staff_customer_contacts', { user_ids: [customer.id] });
    expectCode(mine.error, 'not_allowed');
    const anon = await visitor().rpc('staff_customer_contacts', { user_ids: [customer.id] });
    expect(anon.error?.code).toBe('42501');
  });

  it('answers an empty list for no ids, and refuses more than 500', async () => {
    const admin = await adminClient();
    const none = await admin.rpc('staff_customer_contacts', { user_ids: [] });
    expect(none.error).toBeNull();
    expect(none.data).toEqual([]);
    const many = Array.from({ length: 501 }, () => customer.id);
    expectCode(
      (await admin.rpc('staff_customer_contacts', { user_ids: many })).error,
      'invalid_payload',
    );
  });
});

describe('waves: where pending bookings come from, cleared in one action', () => {
  type Source = {
    kind: string;
    source: string;
    pending: number;
    unconfirmed: number;
    car_days: number;
    refs: string[];
  };

  it('lists a client address and a private mail domain with their pending bookings, for staff only, and rejects a wave at once', async () => {
    const ip = randomIp();
    const domain = `wave-${randomUUID().slice(0, 6)}.test`;
    const car = (await newCar()).id;
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await book(
          visitor(ip),
          car,
          {
            guest_email: `w${i}@${domain}`,
            start_at: algiersAt(200 + 3 * i, 10),
            end_at: algiersAt(202 + 3 * i, 10),
          },
          false,
          { confirm: false },
        ),
      );
    }
    // The domain holds 3 proven bookings at most; the others wait for their code.
    for (const b of made.slice(0, 3)) await confirmContact(b);
    const admin = await adminClient();
    const { data, error } = await admin.rpc('staff_pending_sources');
    expect(error).toBeNull();
    const sources = data as Source[];
    const byAddress = sources.find((s) => s.kind === 'address' && s.source === ip);
    const byDomain = sources.find((s) => s.kind === 'domain' && s.source === domain);
    for (const wave of [byAddress, byDomain]) {
      expect(wave).toMatchObject({ pending: 5, unconfirmed: 2 });
      expect(Number(wave!.car_days)).toBeCloseTo(6, 1);
      expect(wave!.refs).toHaveLength(5);
      expect(wave!.refs).toContain(made[4]!.reference);
    }

    const customer = await newCustomer();
    expectCode((await customer.client.rpc('staff_pending_sources')).error, 'not_allowed');
    expectCode(
      (
        await customer.client.rpc('staff_reject_source', {
          kind: 'domain',
          source: domain,
          reason: 'x',
        })
      ).error,
      'not_allowed',
    );
    expectCode(
      (await admin.rpc('staff_reject_source', { kind: 'domain', source: domain, reason: ' ' }))
        .error,
      'reason_required',
    );

    const rejected = await admin.rpc('staff_reject_source', {
      kind: 'domain',
      source: domain,
      reason: 'Réservations en série depuis un même domaine',
    });
    expect(rejected).toMatchObject({ error: null, data: 5 });
    for (const b of made) {
      expect(await storedBooking(b.id)).toMatchObject({
        status: 'rejected',
        status_reason: 'Réservations en série depuis un même domaine',
      });
    }
    const after = (await admin.rpc('staff_pending_sources')).data as Source[];
    expect(after.find((s) => s.source === domain || s.source === ip)).toBeUndefined();
    // The history says staff did it.
    const events = await admin
      .from('booking_events')
      .select('status, actor')
      .eq('booking_id', made[0]!.id)
      .order('id');
    expect(events.data?.at(-1)).toEqual({ status: 'rejected', actor: 'staff' });
  });
});
