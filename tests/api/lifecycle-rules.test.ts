/**
 * The device's lifecycle table (src/domain/lifecycle.ts) equals the server's rules: for every
 * status a booking can be in, every status asked for, with and without a reason, staff's
 * `staff_set_booking_status` and the customer's `cancel_booking` accept exactly the moves the
 * table allows and refuse the others with the code it names; and `car_busy_periods` (the
 * availability the device syncs) lists a booking exactly while the table says it holds its car.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  bookingStatuses,
  holdsCar,
  moveOutcome,
  type Actor,
  type MoveOutcome,
} from '../../src/domain/lifecycle.ts';
import {
  adminClient,
  algiersAt,
  book,
  newCar,
  newCustomer,
  staffMoves,
  visitor,
  type Booking,
  type Customer,
} from '../support/fixtures.ts';
import { checkBookingFiles } from '../support/supabase.ts';
import { testStack } from '../support/clients.ts';

/**
 * The statuses a customer's booking can reach by moves. `expired` is an unconfirmed guest
 * booking's, set by the server past its deadline (tests/api/guest-confirmation.test.ts).
 */
type Reachable = Exclude<(typeof bookingStatuses)[number], 'expired'>;
const reachable = bookingStatuses.filter((s): s is Reachable => s !== 'expired');

/** The staff moves that lead a new (pending) booking to each status. */
const pathTo: Record<Reachable, string[]> = {
  pending: [],
  reserved: ['reserved'],
  in_progress: ['reserved', 'in_progress'],
  completed: ['reserved', 'in_progress', 'completed'],
  cancelled: ['cancelled'],
  rejected: ['rejected'],
};

/** What may be asked: every status, and one the server does not know. */
const targets = [...bookingStatuses, 'not_a_status'] as const;
const reasons = [null, 'Véhicule en maintenance'] as const;

let car: string;
let customer: Customer;
let day = 0;

/** A new booking of the customer in `status`, on its own days of the test car. */
async function bookingIn(status: Reachable): Promise<Booking> {
  day += 3;
  const created = await book(
    customer.client,
    car,
    { start_at: algiersAt(day, 10), end_at: algiersAt(day + 2, 10) },
    true,
  );
  // Staff accept only checked files (check-upload): a pending booking here must be acceptable.
  await checkBookingFiles(testStack(), created.id);
  return pathTo[status].length > 0 ? staffMoves(created.id, pathTo[status]) : created;
}

type Answer = { outcome: MoveOutcome | string; status: string | null };

/** Asks the server for a move and reads its answer as the table's outcome. */
async function ask(
  actor: Actor,
  booking: Booking,
  to: string,
  reason: string | null,
): Promise<Answer> {
  const { data, error } =
    actor === 'staff'
      ? await (
          await adminClient()
        ).rpc('staff_set_booking_status', {
          booking_id: booking.id,
          status: to,
          reason,
        })
      : await customer.client.rpc('cancel_booking', { booking_id: booking.id });
  if (error) {
    expect(error.code, `${error.message}: ${error.details}`).toBe('P0001');
    return { outcome: error.message, status: null };
  }
  const status = (data as Booking).status;
  return { outcome: status === booking.status ? 'unchanged' : 'ok', status };
}

beforeAll(async () => {
  car = (await newCar()).id;
});

// A customer per test: each makes more bookings than one account may make in an hour
// (booking limits, docs/database.md).
beforeEach(async () => {
  customer = await newCustomer();
});

describe('the lifecycle table and the server agree', () => {
  for (const from of reachable) {
    it(`from ${from}: every move staff and the customer ask for`, async () => {
      // Refusals change nothing, so one booking serves them all; each accepted move gets its own.
      const shared = await bookingIn(from);
      const cases: Array<{ actor: Actor; to: string; reason: string | null }> = [
        ...targets.flatMap((to) =>
          reasons.map((reason) => ({ actor: 'staff' as const, to, reason })),
        ),
        { actor: 'customer', to: 'cancelled', reason: null },
      ];
      for (const { actor, to, reason } of cases) {
        const expected = moveOutcome(actor, from, to, reason);
        const booking = expected === 'ok' ? await bookingIn(from) : shared;
        const answer = await ask(actor, booking, to, reason);
        expect(answer.outcome, `${actor}: ${from} → ${to} (reason: ${reason ?? 'none'})`).toBe(
          expected,
        );
        if (expected === 'ok') expect(answer.status).toBe(to);
      }
    });
  }

  it('lists a booking in the busy periods exactly while it holds its car', async () => {
    const fresh = await newCar();
    const listed = new Map<string, boolean>();
    const start = algiersAt(200, 10);
    let offset = 200;
    const bookings: Array<{ status: string; start_at: string }> = [];
    for (const status of reachable) {
      offset += 3;
      const created = await book(
        customer.client,
        fresh.id,
        { start_at: algiersAt(offset, 10), end_at: algiersAt(offset + 1, 10) },
        true,
      );
      if (pathTo[status].length > 0) await staffMoves(created.id, pathTo[status]);
      bookings.push({ status, start_at: created.start_at });
    }
    const { data, error } = await visitor().rpc('car_busy_periods', {
      from: start,
      to: algiersAt(offset + 5, 10),
    });
    expect(error).toBeNull();
    const busy = (data as Array<{ car_id: string; start_at: string }>)
      .filter((p) => p.car_id === fresh.id)
      .map((p) => Date.parse(p.start_at));
    for (const b of bookings) listed.set(b.status, busy.includes(Date.parse(b.start_at)));
    expect(Object.fromEntries(listed)).toEqual(
      Object.fromEntries(reachable.map((s) => [s, holdsCar(s)])),
    );
  });
});
