/**
 * create_booking against the real stack: what it stores, idempotency on the client's id, the
 * database's own guarantee against double bookings (concurrent and adjacent periods), and every
 * rule of docs/decisions.md refused server-side with its stable code — raw RPC calls, no app.
 */
import { randomUUID } from 'node:crypto';

import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { sql, uniqueEmail } from '../support/clients.ts';
import {
  SEED,
  adminClient,
  algiersAt,
  book,
  bookingWithLicence,
  createBooking,
  draft,
  expectCode,
  guestContact,
  newCar,
  newCustomer,
  newReference,
  PUBLIC_BOOKING_KEYS,
  TEST_CONFIRMATION_CODE,
  pick,
  staffMoves,
  storedBooking,
  uploadBookingFile,
  visitor,
  type BookingPayload,
  type Customer,
  type Booking,
} from '../support/fixtures.ts';

describe('create_booking stores what the server decides', () => {
  it('stores a guest booking as pending, with the contact normalised and the server price', async () => {
    const car = await newCar({ daily_rate_dzd: 6000, deposit_dzd: 45000 });
    const guest = visitor();
    const payload = await bookingWithLicence(guest, car.id, {
      start_at: algiersAt(20, 9),
      end_at: algiersAt(22, 9, 30),
      pickup_location_id: SEED.locations.alg,
      dropoff_location_id: SEED.locations.alg,
      extras: ['gps', 'full_tank', 'gps'],
      insurance: ['collision_damage'],
      driver_option: 'provided',
      additional_requests: '  Siège enfant installé, merci.  ',
      // Ignored: the server decides status, price and payment.
      status: 'completed',
      total_dzd: 1,
      price: { total: 1 },
      payment_status: 'paid',
      notes: 'VIP',
    });
    const { data, error } = await createBooking(guest, payload);
    expect(error).toBeNull();
    // The answer is the public projection (no contact, file paths, free text or notes); staff
    // read the stored row.
    expect(Object.keys(data as object).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    const booking = await storedBooking(payload.id);
    // Plus whether the code mail went (a guest's: true here).
    expect(data).toEqual({ ...pick(booking, PUBLIC_BOOKING_KEYS), code_mail_sent: true });
    expect(booking).toMatchObject({
      id: payload.id,
      reference: payload.reference,
      user_id: null,
      guest_name: 'Sofiane Belkacem',
      guest_phone: payload.guest_phone!.replace(/\s/g, ''),
      guest_email: payload.guest_email,
      car_id: car.id,
      status: 'pending',
      payment_method: 'cash',
      payment_status: 'unpaid',
      notes: null,
      driver_option: 'provided',
      extras: ['gps', 'full_tank'],
      insurance: ['civil_liability', 'collision_damage'],
      additional_requests: 'Siège enfant installé, merci.',
      license_path: payload.license_path,
      from_abroad: false,
    });
    expect(booking).not.toHaveProperty('period');
    // 2 days 30 minutes → 3 days. 3×6000 + gps 3×400 + tank 7000 + collision 3×1500
    // + driver 3×4000 + ALG 1500 + Annaba 1500.
    expect(booking.price).toEqual({
      days: 3,
      base: 18000,
      extras_total: 8200,
      insurance_total: 4500,
      driver_total: 12000,
      pickup_fee: 1500,
      dropoff_fee: 1500,
      subtotal: 45700,
      deposit: 45000,
      total: 45700,
      currency: 'DZD',
    });
    expect(booking.total_dzd).toBe(45700);
    const quote = await guest.rpc('quote_booking', { p: payload });
    expect(quote.data).toEqual(booking.price);
  });

  it('gives a signed-in booking to the caller and ignores guest fields', async () => {
    const car = await newCar();
    const customer = await newCustomer();
    const payload = await bookingWithLicence(customer.client, car.id, guestContact(), true);
    const { data, error } = await createBooking(customer.client, payload);
    expect(error).toBeNull();
    expect(data).toMatchObject({ user_id: customer.id, status: 'pending', confirm_by: null });
    expect(await storedBooking(payload.id)).toMatchObject({
      user_id: customer.id,
      guest_name: null,
      guest_phone: null,
      guest_email: null,
      status: 'pending',
      confirm_by: null,
      contact_confirmed_at: null,
    });
    const mine = await customer.client.from('bookings').select('id').eq('id', payload.id);
    expect(mine.data).toEqual([{ id: payload.id }]);
  });
});

describe('create_booking is idempotent on the client id', () => {
  it('returns the same answer when the same request comes again (an outbox replay)', async () => {
    const car = await newCar();
    const customer = await newCustomer();
    const payload = await bookingWithLicence(customer.client, car.id, {}, true);
    const first = await createBooking(customer.client, payload);
    expect(first.error).toBeNull();
    // The same request written another way: other instants' offsets, codes in another order,
    // what the server ignores (status, price) changed.
    const again = await createBooking(customer.client, {
      ...payload,
      start_at: new Date(payload.start_at).toISOString(),
      insurance: [...payload.insurance, 'civil_liability'],
      status: 'reserved',
      total_dzd: 1,
    });
    expect(again.error).toBeNull();
    expect(again.data).toEqual(first.data);
  });

  it('hashes a new booking’s draft as its payload: a request stored before and sent again is the same', async () => {
    // create_booking hashes a new booking from its draft (the payload read once) and a replay
    // from the payload: both must agree on every field, written any way the app may write it.
    const base = draft(SEED.cars.clio5);
    const guest = {
      ...base,
      ...guestContact(),
      guest_name: '  Sofiane Belkacem ',
      guest_email: `  ${uniqueEmail('Hash').toUpperCase()} `,
      extras: ['gps', 'child_seat', 'gps'],
      insurance: ['full', 'civil_liability', 'full'],
      additional_requests: '  Siège bébé  ',
      from_abroad: true,
      flight_document_path: `${base.id}/billet.pdf`,
      locale: 'ar',
    };
    const { extras: _extras, insurance: _insurance, ...bare } = base;
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [guest, null],
      [guest, randomUUID()],
      [{ ...bare, ...guestContact() }, null],
      [
        {
          ...bare,
          start_at: '2031-05-02T09:00:00.5+01:00',
          end_at: '2031-05-04 08:00Z',
          additional_requests: ' ',
        },
        randomUUID(),
      ],
    ];
    const hashes = new Set<string>();
    for (const [payload, uid] of cases) {
      const [row] = await sql<{ payload_hash: string; draft_hash: string }>(
        `select internal.booking_request_hash($1::jsonb, $2::uuid) as payload_hash,
                internal.booking_draft_hash(internal.booking_draft($1::jsonb, $2::uuid), $2::uuid)
                  as draft_hash`,
        [JSON.stringify(payload), uid],
      );
      expect(row!.draft_hash).toBe(row!.payload_hash);
      hashes.add(row!.payload_hash);
    }
    expect(hashes.size).toBe(cases.length);
  });

  it('refuses the same id with other content (idempotency_key_reused), whoever sends it', async () => {
    const car = await newCar();
    const customer = await newCustomer();
    const payload = await bookingWithLicence(customer.client, car.id, {}, true);
    expect((await createBooking(customer.client, payload)).error).toBeNull();
    for (const change of [
      { reference: newReference() },
      { start_at: algiersAt(40), end_at: algiersAt(41) },
      { extras: ['wifi_hotspot'] },
      { additional_requests: 'Autre chose' },
      { locale: 'en' },
    ]) {
      const { data, error } = await createBooking(customer.client, { ...payload, ...change });
      expectCode(error, 'idempotency_key_reused');
      expect(data).toBeNull();
    }

    const guest = visitor();
    const guestPayload = await bookingWithLicence(guest, car.id, {
      start_at: algiersAt(44),
      end_at: algiersAt(45),
    });
    expect((await createBooking(guest, guestPayload)).error).toBeNull();
    // Someone who learnt the id cannot read the booking by sending other content…
    const probe = await createBooking(visitor(), {
      ...guestPayload,
      guest_email: 'attacker@example.com',
    });
    expectCode(probe.error, 'idempotency_key_reused');
    expect(probe.error?.details).not.toContain(guestPayload.guest_email);
    // …and the same content (which they would have to know already) answers the projection.
    const replay = await createBooking(visitor(), guestPayload);
    expect(replay.error).toBeNull();
    expect(replay.data).not.toHaveProperty('guest_email');
    expect(replay.data).not.toHaveProperty('license_path');

    const rows = await (
      await adminClient()
    )
      .from('bookings')
      .select('id, reference')
      .eq('car_id', car.id);
    expect(rows.data).toHaveLength(2);
  });

  it('stores one booking when the same id arrives several times at once', async () => {
    const car = await newCar();
    const guest = visitor();
    const payload = await bookingWithLicence(guest, car.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => createBooking(guest, payload)),
    );
    for (const r of results) {
      expect(r.error).toBeNull();
      expect(r.data?.id).toBe(payload.id);
    }
    const admin = await adminClient();
    const rows = await admin.from('bookings').select('id').eq('car_id', car.id);
    expect(rows.data).toHaveLength(1);
  });

  it('does not hand a customer’s booking to someone else replaying its id', async () => {
    const car = await newCar();
    const owner = await newCustomer();
    const other = await newCustomer();
    const payload = await bookingWithLicence(owner.client, car.id, {}, true);
    expect((await createBooking(owner.client, payload)).error).toBeNull();
    expectCode((await createBooking(other.client, payload)).error, 'not_allowed');
    expectCode((await createBooking(visitor(), payload)).error, 'not_allowed');
  });
});

describe('the database makes a double booking impossible', () => {
  it('lets exactly one of 50 concurrent overlapping bookings through; the others get car_unavailable', async () => {
    const car = await newCar();
    // Ten customers at once, five overlapping bookings each (every period contains day 31, 12:00).
    const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer()));
    const tries = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const client = customers[i % 10]!.client;
        const payload = await bookingWithLicence(
          client,
          car.id,
          { start_at: algiersAt(30, 10, i % 60), end_at: algiersAt(32 + (i % 3), 10) },
          true,
        );
        return { client, payload };
      }),
    );
    const results = await Promise.all(
      tries.map(({ client, payload }) => createBooking(client, payload)),
    );
    const ok = results.filter((r) => r.error === null);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.error !== null)) expectCode(r.error, 'car_unavailable');

    const busy = await visitor().rpc('car_busy_periods', {
      from: algiersAt(29),
      to: algiersAt(40),
    });
    expect((busy.data as { car_id: string }[]).filter((b) => b.car_id === car.id)).toHaveLength(1);
  });

  it('lets exactly one of 20 guests who confirm overlapping bookings at once hold the car; the others are told car_unavailable', async () => {
    const car = await newCar();
    const guests = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const guest = visitor();
        const payload = await bookingWithLicence(guest, car.id, {
          start_at: algiersAt(34, 10, i),
          end_at: algiersAt(36, 10),
        });
        const { data, error } = await createBooking(guest, payload);
        expect(error).toBeNull();
        return { guest, booking: data as Booking };
      }),
    );
    // Unconfirmed, they hold nothing: all twenty were taken.
    await sql(
      `update internal.guest_confirmations set code_hash = internal.confirmation_code_hash(booking_id, $2)
        where booking_id = any($1)`,
      [guests.map((g) => g.booking.id), TEST_CONFIRMATION_CODE],
    );
    const answers = await Promise.all(
      guests.map(({ guest, booking }) =>
        guest.rpc('confirm_guest_booking', {
          reference: booking.reference,
          code: TEST_CONFIRMATION_CODE,
        }),
      ),
    );
    const confirmed = answers.filter((a) => (a.data as { confirmed: boolean }).confirmed);
    expect(confirmed).toHaveLength(1);
    for (const a of answers.filter((x) => !(x.data as { confirmed: boolean }).confirmed)) {
      expect(a.data).toMatchObject({ reason: 'car_unavailable' });
    }
    const statuses = await sql<{ status: string; n: number }>(
      `select status, count(*)::int as n from public.bookings where car_id = $1 group by status order by status`,
      [car.id],
    );
    expect(statuses).toEqual([
      { status: 'expired', n: 19 },
      { status: 'pending', n: 1 },
    ]);
  });

  it('accepts a pickup at the very minute the previous rental returns', async () => {
    const car = await newCar();
    const guest = visitor();
    const first = await book(guest, car.id, {
      start_at: algiersAt(50, 10),
      end_at: algiersAt(52, 10),
    });
    const second = await book(guest, car.id, {
      start_at: algiersAt(52, 10),
      end_at: algiersAt(54, 10),
    });
    const before = await book(guest, car.id, {
      start_at: algiersAt(48, 10),
      end_at: algiersAt(50, 10),
    });
    expect([first.status, second.status, before.status]).toEqual(['pending', 'pending', 'pending']);

    const overlapping = await bookingWithLicence(guest, car.id, {
      start_at: algiersAt(52, 9, 59),
      end_at: algiersAt(53, 10),
    });
    expectCode((await createBooking(guest, overlapping)).error, 'car_unavailable');
  });

  it('frees the period when a booking is rejected or cancelled, never for one still active', async () => {
    const car = await newCar();
    const guest = visitor();
    const period = { start_at: algiersAt(60, 10), end_at: algiersAt(62, 10) };
    const rejected = await book(guest, car.id, period);
    await staffMoves(rejected.id, ['rejected']);
    const customer = await newCustomer();
    const cancelled = await book(customer.client, car.id, period, true);
    expect(
      (await customer.client.rpc('cancel_booking', { booking_id: cancelled.id })).error,
    ).toBeNull();
    const reserved = await book(guest, car.id, period);
    await staffMoves(reserved.id, ['reserved', 'in_progress']);
    const late = await bookingWithLicence(guest, car.id, period);
    expectCode((await createBooking(guest, late)).error, 'car_unavailable');
  });

  it('refuses a guest the car a proven booking holds, and only that (the check reads the exclusion constraint’s index)', async () => {
    const car = await newCar();
    const slot = (day: number) => ({
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day + 2, 10),
    });
    const guestAsks = async (day: number) => {
      const guest = visitor();
      return createBooking(guest, await bookingWithLicence(guest, car.id, slot(day)));
    };
    const customer = await newCustomer();
    // Holding: a customer's pending booking, a guest's confirmed one, a reserved one.
    await book(customer.client, car.id, slot(70), true);
    await book(visitor(), car.id, slot(74));
    const reserved = await book(visitor(), car.id, slot(78));
    await staffMoves(reserved.id, ['reserved']);
    for (const day of [70, 74, 78]) expectCode((await guestAsks(day)).error, 'car_unavailable');
    // Not holding: an unconfirmed guest booking, a cancelled one.
    await book(visitor(), car.id, slot(82), false, { confirm: false });
    const cancelled = await book(customer.client, car.id, slot(86), true);
    expect(
      (await customer.client.rpc('cancel_booking', { booking_id: cancelled.id })).error,
    ).toBeNull();
    for (const day of [82, 86]) expect((await guestAsks(day)).error).toBeNull();
  });
});

describe('every booking rule is checked again by the server', () => {
  let car: string;
  let guest: SupabaseClient;
  let customer: Customer;
  /** A guest draft whose licence is uploaded: each case breaks exactly one rule of it. */
  let base: BookingPayload;
  let taken: Booking;

  beforeAll(async () => {
    car = (await newCar()).id;
    guest = visitor();
    customer = await newCustomer();
    base = await bookingWithLicence(guest, car, {
      start_at: algiersAt(70, 10),
      end_at: algiersAt(73, 10),
    });
    taken = await book(guest, car, { start_at: algiersAt(80, 10), end_at: algiersAt(81, 10) });
  });

  async function refused(
    code: string,
    change: Partial<BookingPayload> | ((p: BookingPayload) => unknown),
  ) {
    const payload = typeof change === 'function' ? change({ ...base }) : { ...base, ...change };
    const { data, error } = await guest.rpc('create_booking', { p: payload });
    expectCode(error, code);
    expect(data).toBeNull();
  }

  it('refuses a payload that is not a booking object (invalid_payload)', async () => {
    await refused('invalid_payload', () => [base]);
    await refused('invalid_payload', () => 'KR-7K3M-9QXD');
    await refused('invalid_payload', (p) => ({ ...p, id: undefined }));
    await refused('invalid_payload', { id: 'not-a-uuid' });
    await refused('invalid_payload', { car_id: 42 as unknown as string });
    await refused('invalid_payload', { extras: 'gps' as unknown as string[] });
    // A list of one code is read without a query (internal.payload_codes): still a string.
    await refused('invalid_payload', { extras: [1] as unknown as string[] });
    await refused('invalid_payload', { insurance: [null] as unknown as string[] });
    await refused('invalid_payload', { from_abroad: 'yes' as unknown as boolean });
    await refused('invalid_payload', { payment_method: 'card' });
  });

  it('checks the reference format (invalid_reference) and uniqueness (reference_taken)', async () => {
    await refused('invalid_reference', (p) => ({ ...p, reference: undefined }));
    await refused('invalid_reference', { reference: 'KR-ABCD-EFGI' });
    await refused('invalid_reference', { reference: 'kr-abcd-efgh' });
    await refused('invalid_reference', { reference: 'KR-ABCDEFGH' });
    await refused('reference_taken', { reference: taken.reference });
  });

  it('wants real dates with an offset and a return after the pickup (invalid_dates)', async () => {
    await refused('invalid_dates', (p) => ({ ...p, start_at: undefined }));
    await refused('invalid_dates', { end_at: base.start_at });
    await refused('invalid_dates', { start_at: algiersAt(75), end_at: algiersAt(74) });
    await refused('invalid_dates', {
      start_at: '2031-02-30T10:00:00+01:00',
      end_at: '2031-03-02T10:00:00+01:00',
    });
    await refused('invalid_dates', {
      start_at: '2031-03-01T10:00:00',
      end_at: '2031-03-02T10:00:00',
    });
    await refused('invalid_dates', { start_at: 'demain', end_at: 'après-demain' });
  });

  it('wants the pickup in the future by the server clock (dates_in_past)', async () => {
    await refused('dates_in_past', { start_at: algiersAt(-1, 10), end_at: algiersAt(2, 10) });
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await refused('dates_in_past', { start_at: aMinuteAgo, end_at: algiersAt(2, 10) });
  });

  it('limits a rental to 90 days (rental_too_long)', async () => {
    await refused('rental_too_long', {
      start_at: algiersAt(100, 10),
      end_at: algiersAt(190, 10, 1),
    });
    const longest = await bookingWithLicence(guest, car, {
      start_at: algiersAt(200, 10),
      end_at: algiersAt(290, 10),
    });
    const { data, error } = await guest.rpc('create_booking', { p: longest });
    expect(error).toBeNull();
    expect((data as Booking).price.days).toBe(90);
  });

  it('wants an active car and active places (car_not_found, location_not_found)', async () => {
    await refused('car_not_found', { car_id: randomUUID() });
    await refused('car_not_found', { car_id: SEED.cars.retiredClio4 });
    await refused('car_not_found', (p) => ({ ...p, car_id: undefined }));
    await refused('location_not_found', { pickup_location_id: randomUUID() });
    await refused('location_not_found', (p) => ({ ...p, dropoff_location_id: undefined }));
    const admin = await adminClient();
    const closed = await admin
      .from('locations')
      .insert({
        kind: 'city',
        name: { fr: 'Agence fermée', en: 'Closed branch', ar: 'وكالة مغلقة' },
        delivery_fee_dzd: 0,
        active: false,
      })
      .select('id')
      .single();
    expect(closed.error).toBeNull();
    await refused('location_not_found', { dropoff_location_id: closed.data!.id });
  });

  it('wants a known driver option (invalid_driver_option)', async () => {
    await refused('invalid_driver_option', { driver_option: 'chauffeur' });
    await refused('invalid_driver_option', (p) => ({ ...p, driver_option: undefined }));
  });

  it('wants known, active extras and insurance options (unknown_extra, unknown_insurance)', async () => {
    await refused('unknown_extra', { extras: ['gps', 'jetpack'] });
    await refused('unknown_extra', { extras: ['jetpack'] });
    await refused('unknown_insurance', { insurance: ['civil_liability', 'meteorites'] });
    await refused('unknown_insurance', { insurance: ['meteorites'] });
  });

  it('bounds the additional requests to 500 characters (additional_requests_too_long)', async () => {
    await refused('additional_requests_too_long', { additional_requests: 'é'.repeat(501) });
    const ok = await bookingWithLicence(guest, car, {
      start_at: algiersAt(300, 10),
      end_at: algiersAt(301, 10),
      additional_requests: 'é'.repeat(500),
    });
    expect((await guest.rpc('create_booking', { p: ok })).error).toBeNull();
  });

  it('wants a guest’s full, well-formed contact (guest_contact_required, invalid_email, invalid_phone)', async () => {
    await refused('guest_contact_required', (p) => ({ ...p, guest_email: undefined }));
    await refused('guest_contact_required', { guest_name: '   ' });
    await refused('guest_contact_required', (p) => ({ ...p, guest_phone: null }));
    await refused('invalid_email', { guest_email: 'pas-un-email' });
    await refused('invalid_email', { guest_email: 'a@b' });
    await refused('invalid_phone', { guest_phone: '055512345' });
    await refused('invalid_phone', { guest_phone: '+0213555123456' });
    await refused('invalid_phone', { guest_phone: '+213 55' });
    await refused('invalid_phone', { guest_phone: '+213abc123456' });
  });

  it('wants the licence uploaded into the booking’s own folder (licence_required)', async () => {
    await refused('licence_required', (p) => ({ ...p, license_path: undefined }));
    await refused('licence_required', { license_path: `${base.id}/not-uploaded.png` });
    await refused('licence_required', { license_path: taken.license_path });
    // A file of another booking's folder, copied into the payload of this one.
    const other = randomUUID();
    await uploadBookingFile(guest, other);
    await refused('licence_required', { license_path: `${other}/permis.png` });
    // The right name, but in the flight-documents bucket.
    const wrongBucket = draft(car, {
      ...guestContact(),
      start_at: algiersAt(310),
      end_at: algiersAt(311),
    });
    await uploadBookingFile(guest, wrongBucket.id, 'flight-documents', 'permis.png');
    expectCode((await guest.rpc('create_booking', { p: wrongBucket })).error, 'licence_required');
  });

  it('finds a booking file only at `{booking_id}/{name}`, one level down', async () => {
    const id = randomUUID();
    await sql(`begin;
      set local session_replication_role = replica;
      insert into storage.objects (bucket_id, name, metadata) values
        ('licenses', '${id}/permis.pdf', '{}'), ('licenses', '${id}/sub/permis.pdf', '{}');
      commit;`);
    try {
      const paths = [
        `${id}/permis.pdf`,
        `${id}/sub/permis.pdf`,
        `${id}/`,
        id,
        `/${id}/permis.pdf`,
        `${randomUUID()}/permis.pdf`,
        `${id.toUpperCase()}/permis.pdf`,
        null,
      ];
      const rows = await sql<{ found: boolean }>(
        `select internal.booking_file_exists('licenses', $1::uuid, p) as found
           from unnest($2::text[]) with ordinality as x(p, n) order by n`,
        [id, paths],
      );
      expect(rows.map((row) => row.found)).toEqual([
        true,
        false,
        false,
        false,
        false,
        false,
        false,
        false,
      ]);
    } finally {
      await sql(`begin;
        set local session_replication_role = replica;
        delete from storage.objects where bucket_id = 'licenses' and name like '${id}/%';
        commit;`);
    }
  });

  it('wants the flight document of a visitor from abroad (flight_document_required)', async () => {
    await refused('flight_document_required', { from_abroad: true });
    await refused('flight_document_required', {
      from_abroad: true,
      flight_document_path: `${base.id}/billet.pdf`,
    });
    const abroad = await bookingWithLicence(guest, car, {
      start_at: algiersAt(320, 10),
      end_at: algiersAt(322, 10),
      from_abroad: true,
    });
    abroad.flight_document_path = await uploadBookingFile(
      guest,
      abroad.id,
      'flight-documents',
      'billet.png',
    );
    const { data, error } = await guest.rpc('create_booking', { p: abroad });
    expect(error).toBeNull();
    expect(data).toMatchObject({ from_abroad: true });
    expect(await storedBooking(abroad.id)).toMatchObject({
      from_abroad: true,
      flight_document_path: abroad.flight_document_path,
    });
  });

  it('accepts the base draft once every rule holds, and a customer needs no guest contact', async () => {
    const { error } = await guest.rpc('create_booking', { p: base });
    expect(error).toBeNull();
    const mine = await bookingWithLicence(
      customer.client,
      car,
      { start_at: algiersAt(330), end_at: algiersAt(331) },
      true,
    );
    expect((await customer.client.rpc('create_booking', { p: mine })).error).toBeNull();
  });
});
