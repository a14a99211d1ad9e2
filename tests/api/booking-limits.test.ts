/**
 * Nobody can block the fleet (docs/decisions.md, "Limits"): the client address every limit uses
 * (cf-connecting-ip, else the rightmost X-Forwarded-For — a forged first entry gives no fresh
 * address), pending bookings per contact, per account and unconfirmed holds per address (the
 * airport rule: confirmed contacts never count against it), the creation rate per caller, the
 * booking horizon, each with its stable code and a `detail` saying when to retry. The last block
 * runs a stack of its own that trusts no forwarded header, as production, and forges both.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sql, testStack } from '../support/clients.ts';
import {
  SEED,
  adminClient,
  algiersAt,
  apiClient,
  book,
  bookingWithLicence,
  confirmContact,
  createBooking,
  draft,
  expectCode,
  guestContact,
  newCar,
  newCustomer,
  newReference,
  pngBlob,
  randomIp,
  storedBooking,
  visitor,
  type Booking,
  type BookingPayload,
} from '../support/fixtures.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

type LimitDetail = { limit: number; retry_after: string | null };

function detail(error: { details: string } | null): LimitDetail {
  return JSON.parse(error?.details ?? 'null') as LimitDetail;
}

/** Each booking of a test takes a day of its own on its car (2 hours at 10:00). */
function nextDays(first: number) {
  let day = first;
  return (): Partial<BookingPayload> => {
    const d = day++;
    return { start_at: algiersAt(d, 10), end_at: algiersAt(d, 12) };
  };
}

/** Moves an unconfirmed booking's deadline into the past (as the database owner). */
async function lapse(ids: string[]): Promise<void> {
  await sql(
    `update public.bookings set confirm_by = now() - interval '1 second' where id = any($1)`,
    [ids],
  );
}

async function create(client: SupabaseClient, car: string, overrides: Partial<BookingPayload>) {
  const payload = await bookingWithLicence(client, car, overrides);
  return { payload, ...(await createBooking(client, payload)) };
}

describe('the client address (internal.client_address)', () => {
  async function addressOf(headers: Record<string, string> | null) {
    const rows = await sql<{ address: string | null; key: string | null }>(
      `select internal.client_address()::text as address, internal.client_address_key() as key
         from (select set_config('request.headers', $1, true)) s`,
      [headers ? JSON.stringify(headers) : ''],
    );
    return rows[0]!;
  }

  it('is cf-connecting-ip, else the rightmost X-Forwarded-For entry, never a forged first one', async () => {
    expect(
      await addressOf({ 'cf-connecting-ip': '203.0.113.5', 'x-forwarded-for': '1.2.3.4, 5.6.7.8' }),
    ).toEqual({ address: '203.0.113.5/32', key: '203.0.113.5' });
    expect(await addressOf({ 'x-forwarded-for': '1.2.3.4, 5.6.7.8' })).toEqual({
      address: '5.6.7.8/32',
      key: '5.6.7.8',
    });
    expect(
      await addressOf({ 'cf-connecting-ip': 'nonsense', 'x-forwarded-for': 'x, 198.51.100.7' }),
    ).toEqual({ address: '198.51.100.7/32', key: '198.51.100.7' });
    expect(await addressOf({ 'x-forwarded-for': '1.2.3.4, garbage' })).toEqual({
      address: null,
      key: null,
    });
    expect(await addressOf({})).toEqual({ address: null, key: null });
    expect(await addressOf(null)).toEqual({ address: null, key: null });
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', async () => {
    expect((await addressOf({ 'cf-connecting-ip': '2001:db8:1:2:aaaa::1' })).key).toBe(
      '2001:db8:1:2::/64',
    );
    expect((await addressOf({ 'cf-connecting-ip': '2001:db8:1:2:ffff::9' })).key).toBe(
      '2001:db8:1:2::/64',
    );
    expect((await addressOf({ 'x-forwarded-for': '::ffff:192.0.2.1' })).key).toBe('192.0.2.1');
  });

  it('rate-limits guest lookups by it: a forged first X-Forwarded-For entry gives no fresh address', async () => {
    const admin = await adminClient();
    const ip = randomIp();
    // The address budget at its lowest (20 failed lookups in 15 minutes) for this test.
    expect(
      (await admin.from('settings').update({ lookup_failures_per_address: 20 }).eq('id', 1)).error,
    ).toBeNull();
    try {
      for (let i = 0; i < 21; i++) {
        // What a client sends behind hosted Supabase's proxies: its own first entry, then the
        // address the proxy appended.
        const forged = apiClient({ 'x-forwarded-for': `${randomIp()}, ${ip}` });
        const { error } = await forged.rpc('find_guest_booking', {
          reference: newReference(),
          contact: 'guess@example.com',
        });
        if (i < 20) expect(error).toBeNull();
        else expectCode(error, 'rate_limited');
      }
    } finally {
      await admin.from('settings').update({ lookup_failures_per_address: 150 }).eq('id', 1);
    }
  });
});

describe('pending bookings per contact', () => {
  it('allows 3 pending bookings per email (any case, +tag) or phone, then too_many_pending_for_contact with when to retry', async () => {
    const car = (await newCar()).id;
    const days = nextDays(100);
    const local = `contact-${randomUUID().slice(0, 8)}`;
    const emails = [
      `${local}@kiraa.test`,
      `${local.toUpperCase()}@KIRAA.test`,
      `${local}+x@kiraa.test`,
    ];
    const made: Booking[] = [];
    for (const guest_email of emails) {
      const { data, error } = await create(visitor(), car, { ...days(), guest_email });
      expect(error).toBeNull();
      made.push(data as Booking);
    }
    const { error } = await create(visitor(), car, {
      ...days(),
      guest_email: `${local}+y@kiraa.test`,
    });
    expectCode(error, 'too_many_pending_for_contact');
    const soonest = made.map((b) => b.confirm_by!).sort()[0]!;
    expect(detail(error)).toEqual({ limit: 3, retry_after: soonest.replace(/\.\d+\+00:00$/, 'Z') });

    // The same phone, written another way, with other emails.
    const phone = guestContact().guest_phone;
    for (let i = 0; i < 3; i++) {
      expect((await create(visitor(), car, { ...days(), guest_phone: phone })).error).toBeNull();
    }
    const byPhone = await create(visitor(), car, {
      ...days(),
      guest_phone: phone.replace(/\s/g, '').replace('+', '00'),
    });
    expectCode(byPhone.error, 'invalid_phone');
    expectCode(
      (await create(visitor(), car, { ...days(), guest_phone: phone.replace(/\s/g, '') })).error,
      'too_many_pending_for_contact',
    );

    // A lapsed hold no longer counts.
    await lapse([made[0]!.id]);
    expect((await create(visitor(), car, { ...days(), guest_email: emails[0] })).error).toBeNull();
  });
});

describe('unconfirmed holds per client address (the airport rule)', () => {
  it('allows 10 unconfirmed holds at once from one address; a confirmed contact frees its place; customers and other addresses are not affected', async () => {
    const car = (await newCar()).id;
    const days = nextDays(120);
    const ip = randomIp();
    const hall = () => visitor(ip);
    const holds: Booking[] = [];
    for (let i = 0; i < 10; i++) {
      const { data, error } = await create(hall(), car, days());
      expect(error).toBeNull();
      holds.push(data as Booking);
    }
    const eleventh = await create(hall(), car, days());
    expectCode(eleventh.error, 'too_many_pending_from_address');
    const soonest = holds.map((b) => b.confirm_by!).sort()[0]!;
    expect(detail(eleventh.error)).toEqual({
      limit: 10,
      retry_after: soonest.replace(/\.\d+\+00:00$/, 'Z'),
    });

    // One traveller confirms from their phone: the hall can book again.
    await confirmContact(holds[0]!);
    expect((await create(hall(), car, days())).error).toBeNull();
    expectCode((await create(hall(), car, days())).error, 'too_many_pending_from_address');

    // A signed-in customer behind the same address, and a guest elsewhere, book as usual.
    const customer = await newCustomer();
    const token = (await customer.client.auth.getSession()).data.session!.access_token;
    const signedIn = apiClient({ 'x-forwarded-for': ip, Authorization: `Bearer ${token}` });
    const mine = await bookingWithLicence(signedIn, car, days(), true);
    expect((await createBooking(signedIn, mine)).error).toBeNull();
    expect((await create(visitor(), car, days())).error).toBeNull();
  });

  it('allows 20 unconfirmed guest bookings an hour from one address (booking_rate_limited), confirmed ones not counted', async () => {
    const car = (await newCar()).id;
    const days = nextDays(150);
    const ip = randomIp();
    const made: Booking[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 10; i++) {
        const { data, error } = await create(visitor(ip), car, days());
        expect(error).toBeNull();
        made.push(data as Booking);
      }
      // They lapse (an attacker who never confirms): the holds are free again, the rate is not.
      await lapse(made.slice(-10).map((b) => b.id));
    }
    const next = await create(visitor(ip), car, days());
    expectCode(next.error, 'booking_rate_limited');
    const first = String((await storedBooking(made[0]!.id)).created_at);
    expect(new Date(detail(next.error).retry_after!).getTime()).toBe(
      Math.floor((new Date(first).getTime() + 3_600_000) / 1000) * 1000,
    );
    // Confirming one (an honest traveller of that hour) gives the address room again.
    await sql(
      `update public.bookings set confirm_by = now() + interval '10 minutes' where id = $1`,
      [made[19]!.id],
    );
    await confirmContact(made[19]!);
    expect((await create(visitor(ip), car, days())).error).toBeNull();
  });
});

describe('limits per account', () => {
  it('allows 5 pending bookings per customer (too_many_pending_for_account); a cancellation frees a place', async () => {
    const car = (await newCar()).id;
    const days = nextDays(180);
    const customer = await newCustomer();
    const made: Booking[] = [];
    for (let i = 0; i < 5; i++) made.push(await book(customer.client, car, days(), true));
    const sixth = await bookingWithLicence(customer.client, car, days(), true);
    const refused = await createBooking(customer.client, sixth);
    expectCode(refused.error, 'too_many_pending_for_account');
    expect(detail(refused.error)).toEqual({ limit: 5, retry_after: null });
    expect(
      (await customer.client.rpc('cancel_booking', { booking_id: made[0]!.id })).error,
    ).toBeNull();
    expect((await createBooking(customer.client, sixth)).error).toBeNull();
  });

  it('allows 20 bookings an hour per account (booking_rate_limited), whatever the address', async () => {
    const car = (await newCar()).id;
    const days = nextDays(200);
    const customer = await newCustomer();
    for (let i = 0; i < 20; i++) {
      const b = await book(customer.client, car, days(), true);
      expect((await customer.client.rpc('cancel_booking', { booking_id: b.id })).error).toBeNull();
    }
    const next = await bookingWithLicence(customer.client, car, days(), true);
    const { error } = await createBooking(customer.client, next);
    expectCode(error, 'booking_rate_limited');
    expect(detail(error).limit).toBe(20);
    expect(new Date(detail(error).retry_after!).getTime()).toBeGreaterThan(
      Date.now() + 55 * 60_000,
    );
  });
});

describe('the booking horizon and the rental length', () => {
  it('refuses a start more than 365 days ahead (booking_too_far_ahead) and a rental over 90 days; staff set the horizon', async () => {
    const car = (await newCar()).id;
    const guest = visitor();
    const far = await create(guest, car, { start_at: algiersAt(367), end_at: algiersAt(368) });
    expectCode(far.error, 'booking_too_far_ahead');
    expect(JSON.parse(far.error!.details)).toMatchObject({ max_days: 365 });
    expect(
      (await create(guest, car, { start_at: algiersAt(363), end_at: algiersAt(364) })).error,
    ).toBeNull();
    expectCode(
      (await create(guest, car, { start_at: algiersAt(200, 10), end_at: algiersAt(290, 11) }))
        .error,
      'rental_too_long',
    );

    const admin = await adminClient();
    const customer = await newCustomer();
    try {
      // A customer cannot change it (RLS: no row to update), staff can.
      await customer.client.from('settings').update({ booking_horizon_days: 700 }).eq('id', 1);
      expect((await guest.from('settings').select('booking_horizon_days').single()).data).toEqual({
        booking_horizon_days: 365,
      });
      const set = await admin.from('settings').update({ booking_horizon_days: 400 }).eq('id', 1);
      expect(set.error).toBeNull();
      expect(
        (await create(guest, car, { start_at: algiersAt(367), end_at: algiersAt(368) })).error,
      ).toBeNull();
      expect(
        (await admin.from('settings').update({ booking_horizon_days: 5 }).eq('id', 1)).error?.code,
      ).toBe('23514');
    } finally {
      await admin.from('settings').update({ booking_horizon_days: 365 }).eq('id', 1);
    }
  });

  it('uses the hold time staff set for new guest bookings', async () => {
    const admin = await adminClient();
    const car = (await newCar()).id;
    try {
      expect(
        (await admin.from('settings').update({ guest_hold_minutes: 30 }).eq('id', 1)).error,
      ).toBeNull();
      const { data } = await create(visitor(), car, {
        start_at: algiersAt(20),
        end_at: algiersAt(21),
      });
      const hold = new Date((data as Booking).confirm_by!).getTime() - Date.now();
      expect(hold).toBeGreaterThan(28 * 60_000);
      expect(hold).toBeLessThanOrEqual(30 * 60_000);
    } finally {
      await admin.from('settings').update({ guest_hold_minutes: 45 }).eq('id', 1);
    }
  });
});

describe('a stack that trusts no forwarded header (as production behind its proxy)', () => {
  const engine = testStack().engine;
  let dir: string;
  let cluster: PostgresCluster | null = null;
  let stack: TestStack | null = null;

  /** A client of this stack that forges both headers with fresh addresses. */
  function forger(): SupabaseClient {
    return apiClient(
      {
        'x-forwarded-for': `${randomIp()}, ${randomIp()}`,
        'cf-connecting-ip': randomIp(),
      },
      stack!,
    );
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kiraa-limits-'));
    if (engine === 'postgres') cluster = await startPostgres();
    stack = await startTestStack({
      db: engine,
      dataDir: dir,
      databaseUrl: cluster?.url,
      trustProxyHeaders: false,
    });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('still limits a client that forges X-Forwarded-For and cf-connecting-ip on every request', async () => {
    const day = 100 + randomInt(100);
    let created = 0;
    let refused: string | null = null;
    for (let i = 0; i < 11; i++) {
      const c = forger();
      const id = randomUUID();
      const upload = await c.storage
        .from('licenses')
        .upload(`${id}/permis.png`, pngBlob(), { contentType: 'image/png' });
      expect(upload.error).toBeNull();
      const { error } = await c.rpc('create_booking', {
        p: draft(SEED.cars.clio5, {
          id,
          start_at: algiersAt(day + i, 10),
          end_at: algiersAt(day + i, 12),
          ...guestContact(),
        }),
      });
      if (error) refused = error.message;
      else created += 1;
    }
    expect(created).toBe(10);
    expect(refused).toBe('too_many_pending_from_address');

    // Failed guest lookups: 150 in 15 minutes per address, whatever the headers say.
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          forger().rpc('find_guest_booking', {
            reference: newReference(),
            contact: 'guess@example.com',
          }),
        ),
      );
      for (const { error } of answers) expect(error).toBeNull();
    }
    const { error } = await forger().rpc('find_guest_booking', {
      reference: newReference(),
      contact: 'guess@example.com',
    });
    expectCode(error, 'rate_limited');
  });
});
