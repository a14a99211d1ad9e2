/**
 * A guest's bookings join an account (docs/decisions.md, "Guest bookings join an account"): the
 * guest asks GoTrue for an e-mail code with the booking's address (signInWithOtp, a new account
 * with its profile), types it (verifyOtp type 'email'), and `claim_guest_bookings` moves to the
 * account the guest bookings the device names by id and reference, confirming the unconfirmed
 * one. Nobody claims someone else's booking: another address, an unconfirmed address, a booking
 * the device does not hold (the reference alone), a signed-out caller, another account's replay.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { sql, uniqueEmail, waitForMail } from '../support/clients.ts';
import {
  algiersAt,
  bookingWithLicence,
  confirmContact,
  createBooking,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  staffMoves,
  storedBooking,
  visitor,
  type Booking,
  type BookingPayload,
} from '../support/fixtures.ts';
import { parseAuthMail } from '../support/supabase.ts';

type Joined = {
  id: string;
  reference: string;
  joined: boolean;
  reason?: string;
  booking?: Booking;
};

let car: string;
let nextDay = 140;

beforeAll(async () => {
  car = (await newCar({ name: 'Dacia Sandero' })).id;
});

/** A guest booking from `guest`'s device with `email` as its contact (unconfirmed). */
async function guestBooking(
  guest: SupabaseClient,
  email: string,
  overrides: Partial<BookingPayload> = {},
): Promise<Booking> {
  const day = nextDay++;
  const payload = await bookingWithLicence(guest, car, {
    start_at: algiersAt(day, 10),
    end_at: algiersAt(day, 12),
    guest_email: email,
    ...overrides,
  });
  const { data, error } = await createBooking(guest, payload);
  if (error) throw new Error(`create_booking refused: ${error.message} (${error.details})`);
  return data as Booking;
}

/** The guest opens an account with the booking's address: GoTrue's code, typed on the device. */
async function openAccount(client: SupabaseClient, email: string): Promise<void> {
  const asked = Date.now();
  const sent = await client.auth.signInWithOtp({
    email,
    options: {
      shouldCreateUser: true,
      data: {
        name: 'Sofiane Belkacem',
        phone: '+213555123456',
        age: 34,
        address: '12 rue Larbi Ben Mhidi, Oran',
        locale: 'fr',
      },
    },
  });
  expect(sent.error).toBeNull();
  // The booking's own code mail goes to the same address: the auth mail is the one with a link
  // to /auth/v1/verify.
  const mail = await waitForMail(
    email,
    (m) => Date.parse(m.createdAt) >= asked - 1000 && m.text.includes('/auth/v1/verify'),
  );
  const { error } = await client.auth.verifyOtp({
    email,
    token: parseAuthMail(mail.text).code,
    type: 'email',
  });
  expect(error).toBeNull();
}

async function claim(
  client: SupabaseClient,
  items: Array<{ id: string; reference: string }>,
): Promise<{ data: Joined[] | null; error: Parameters<typeof expectCode>[0] }> {
  const { data, error } = await client.rpc('claim_guest_bookings', { items });
  return { data: data as Joined[] | null, error };
}

const item = (b: Booking) => ({ id: b.id, reference: b.reference });

describe('claim_guest_bookings', () => {
  it('opens the account with GoTrue’s code; the booking is confirmed and joins it with an earlier one of the device', async () => {
    const device = visitor();
    const email = uniqueEmail('join');
    const earlier = await guestBooking(device, email);
    await confirmContact(earlier);
    const current = await guestBooking(device, email);
    expect(current).toMatchObject({ status: 'pending', contact_confirmed_at: null });

    await openAccount(device, email);
    const { data: user } = await device.auth.getUser();
    const { data, error } = await claim(device, [item(current), item(earlier)]);
    expect(error).toBeNull();
    expect(data).toHaveLength(2);
    for (const [answer, booking] of [
      [data![0]!, current],
      [data![1]!, earlier],
    ] as const) {
      expect(answer).toMatchObject({ id: booking.id, joined: true });
      expect(answer.booking).toMatchObject({
        id: booking.id,
        user_id: user.user!.id,
        status: 'pending',
        confirm_by: null,
        contact_confirmed_at: null,
      });
      expect(answer.booking).not.toHaveProperty('guest_email');
    }

    // The account reads them as its own (RLS), and they hold the car: staff can accept.
    const mine = await device.from('bookings').select('id, user_id').order('created_at');
    expect(mine.data?.map((b) => b.id)).toEqual([earlier.id, current.id]);
    const events = await sql<{ reason: string; actor: string }>(
      `select reason, actor from public.booking_events where booking_id = $1 and reason = 'joined_account'`,
      [current.id],
    );
    expect(events).toEqual([{ reason: 'joined_account', actor: 'customer' }]);
    const received = await waitForMail(email, (m) =>
      m.subject.includes(`Réservation enregistrée · ${current.reference}`),
    );
    expect(received.text).toContain(current.reference);
    await staffMoves(current.id, ['reserved']);
    expect((await storedBooking(current.id)).status).toBe('reserved');

    // A replay changes nothing and answers the same.
    const again = await claim(device, [item(current)]);
    expect(again.error).toBeNull();
    expect(again.data).toEqual([expect.objectContaining({ id: current.id, joined: true })]);

    // Signed in on another device (a new code), the bookings are there.
    const other = visitor();
    await openAccount(other, email);
    const there = await other.from('bookings').select('id').order('created_at');
    expect(there.data?.map((b) => b.id)).toEqual([earlier.id, current.id]);
  });

  it('refuses another address’s booking and a booking named by its reference alone, the same way', async () => {
    const owner = visitor();
    const ownerEmail = uniqueEmail('owner');
    const theirs = await guestBooking(owner, ownerEmail);
    const mine = await guestBooking(owner, uniqueEmail('mine'));

    // Another customer (their own confirmed address) names the owner's booking.
    const thief = await newCustomer();
    const wrongEmail = await claim(thief.client, [item(theirs)]);
    expect(wrongEmail.error).toBeNull();
    expect(wrongEmail.data).toEqual([
      { id: theirs.id, reference: theirs.reference, joined: false, reason: 'not_found' },
    ]);

    // The owner's own address, from a device that does not hold the booking: the reference with
    // a made-up id, or another booking's id.
    const elsewhere = visitor();
    await openAccount(elsewhere, ownerEmail);
    const guessed = await claim(elsewhere, [
      { id: crypto.randomUUID(), reference: theirs.reference },
      { id: mine.id, reference: theirs.reference },
      { id: theirs.id, reference: 'KR-0000-0000' },
    ]);
    expect(guessed.error).toBeNull();
    expect(guessed.data!.map((a) => [a.joined, a.reason])).toEqual([
      [false, 'not_found'],
      [false, 'not_found'],
      [false, 'not_found'],
    ]);
    for (const b of [theirs, mine]) {
      expect(await storedBooking(b.id)).toMatchObject({ user_id: null });
    }
    // Once joined, another account's replay is refused like any stranger's.
    expect((await claim(elsewhere, [item(theirs)])).data![0]).toMatchObject({ joined: true });
    expect((await claim(thief.client, [item(theirs)])).data![0]).toMatchObject({
      joined: false,
      reason: 'not_found',
    });
  });

  it('refuses an unconfirmed address, a signed-out caller and malformed items', async () => {
    const device = visitor();
    const customer = await newCustomer();
    const booking = await guestBooking(device, customer.email);
    await sql(`update auth.users set email_confirmed_at = null where id = $1`, [customer.id]);
    expectCode((await claim(customer.client, [item(booking)])).error, 'contact_not_confirmed');
    expect(await storedBooking(booking.id)).toMatchObject({ user_id: null });
    await sql(`update auth.users set email_confirmed_at = now() where id = $1`, [customer.id]);

    expectDenied((await claim(device, [item(booking)])).error);
    expectCode((await claim(customer.client, [])).error, 'invalid_payload');
    const eleven = Array.from({ length: 11 }, () => item(booking));
    expectCode((await claim(customer.client, eleven)).error, 'invalid_payload');
    const odd = await customer.client.rpc('claim_guest_bookings', { items: [42, { id: 'x' }] });
    expect(odd.error).toBeNull();
    expect((odd.data as Joined[]).map((a) => a.reason)).toEqual(['not_found', 'not_found']);

    // Confirmed again, the same call joins it.
    expect((await claim(customer.client, [item(booking)])).data![0]).toMatchObject({
      joined: true,
    });
  });

  it('leaves an expired request with the guest, and counts failed items per account (30 an hour)', async () => {
    const device = visitor();
    const customer = await newCustomer();
    const lapsed = await guestBooking(device, customer.email);
    await sql(`update public.bookings set confirm_by = now() - interval '1 second' where id = $1`, [
      lapsed.id,
    ]);
    const answer = await claim(customer.client, [item(lapsed)]);
    expect(answer.data![0]).toMatchObject({ joined: false, reason: 'booking_expired' });
    expect(await storedBooking(lapsed.id)).toMatchObject({ status: 'expired', user_id: null });

    await sql(
      `insert into internal.guest_claim_failures (user_id) select $1 from generate_series(1, 29)`,
      [customer.id],
    );
    const stranger = { id: crypto.randomUUID(), reference: 'KR-0000-0001' };
    expect((await claim(customer.client, [stranger])).data![0]).toMatchObject({
      reason: 'not_found',
    });
    expectCode((await claim(customer.client, [stranger])).error, 'rate_limited');
  });
});
