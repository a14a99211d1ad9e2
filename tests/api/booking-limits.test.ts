/**
 * Nobody can block the fleet (docs/decisions.md, "Who may hold the fleet"): the client address
 * every limit uses (cf-connecting-ip, else the rightmost X-Forwarded-For — a forged first entry
 * gives no fresh address); what proven bookings the agency has not accepted may hold per mailbox,
 * per private mail domain, per client address (on private domains, and a share of the fleet);
 * pending bookings per account; the creation rate per caller (unconfirmed guest bookings per
 * address: confirmed ones never count, the airport rule); the booking horizon; each with its
 * stable code and a `detail` saying when to retry. The last block runs a stack of its own that
 * trusts no forwarded header, as production, and forges both.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

import { serviceClient, sql, testStack } from '../support/clients.ts';
import {
  SEED,
  TEST_CONFIRMATION_CODE,
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
  staffMoves,
  storedBooking,
  visitor,
  type Booking,
  type BookingPayload,
} from '../support/fixtures.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { stackInfo, startTestStack, type TestStack } from '../support/stack.ts';

type LimitDetail = { limit: number; retry_after: string | null; scope?: string };

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
    // The address's flood ceiling at its lowest (20 failed lookups in 15 minutes) for this test.
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
          contact: `guess-${i}@example.com`,
        });
        if (i < 20) expect(error).toBeNull();
        else {
          expectCode(error, 'rate_limited');
          expect(JSON.parse(error!.details)).toMatchObject({ scope: 'address' });
        }
      }
    } finally {
      await admin.from('settings').update({ lookup_failures_per_address: 1000 }).eq('id', 1);
    }
  });
});

/** Sets settings for one test and puts the defaults back after it. */
async function withSettings(values: Record<string, number>, defaults: Record<string, number>) {
  const admin = await adminClient();
  expect((await admin.from('settings').update(values).eq('id', 1)).error).toBeNull();
  onTestFinished(async () => {
    await admin.from('settings').update(defaults).eq('id', 1);
  });
}

/** A guest booking from `client` that the guest confirms (a proven booking). */
async function proven(client: SupabaseClient, car: string, overrides: Partial<BookingPayload>) {
  const made = await create(client, car, overrides);
  if (made.error) return made;
  await confirmContact(made.data!);
  return made;
}

describe('what one mailbox may hold (only what its owner proved counts)', () => {
  it('allows 3 proven pending bookings per mailbox (any case, +tag), then too_many_pending_for_contact; an answer from the agency frees a place', async () => {
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
      const { data, error } = await proven(visitor(), car, { ...days(), guest_email });
      expect(error).toBeNull();
      made.push(data as Booking);
    }
    const { error } = await create(visitor(), car, {
      ...days(),
      guest_email: `${local}+y@kiraa.test`,
    });
    expectCode(error, 'too_many_pending_for_contact');
    expect(detail(error)).toEqual({ limit: 3, retry_after: null, scope: 'mailbox' });

    await staffMoves(made[0]!.id, ['rejected']);
    expect((await proven(visitor(), car, { ...days(), guest_email: emails[0] })).error).toBeNull();
  });

  it('keys a guest by the address typed, a customer by the account’s address, else by the account', async () => {
    const customer = await newCustomer();
    const local = `key-${randomUUID().slice(0, 8)}`;
    await sql(`update auth.users set email = $1 where id = $2`, [
      `${local}+shop@Kiraa.test`,
      customer.id,
    ]);
    const stranger = randomUUID();
    const [keys] = await sql<{ guest: string; customer: string; unknown: string }>(
      `select internal.booking_mailbox(null, $1) as guest,
              internal.booking_mailbox($2, 'typed-by-a-customer@kiraa.test') as customer,
              internal.booking_mailbox($3, null) as unknown`,
      [` ${local.toUpperCase()}@kiraa.TEST`, customer.id, stranger],
    );
    expect(keys).toEqual({
      guest: `${local}@kiraa.test`,
      customer: `${local}@kiraa.test`,
      unknown: `account:${stranger}`,
    });
  });

  it('cannot be spent by a stranger who types someone else’s e-mail or phone', async () => {
    const car = (await newCar()).id;
    const days = nextDays(110);
    const victim = guestContact();
    // Five bookings made elsewhere with the victim's e-mail and phone: never confirmed (the
    // stranger cannot read the victim's mail), they count against nothing of the victim's.
    const stranger = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await create(visitor(stranger), car, { ...days(), ...victim })).error).toBeNull();
    }
    // A phone is never proven: bookings with the victim's phone and other e-mails, even
    // confirmed, count against the victim's nothing either.
    for (let i = 0; i < 3; i++) {
      const other = guestContact();
      expect(
        (
          await proven(visitor(stranger), car, {
            ...days(),
            ...other,
            guest_phone: victim.guest_phone,
          })
        ).error,
      ).toBeNull();
    }
    const mine = await proven(visitor(), car, { ...days(), ...victim });
    expect(mine.error).toBeNull();
    expect((await storedBooking(mine.data!.id)).contact_confirmed_at).not.toBeNull();
  });
});

describe('what one source may hold of the fleet', () => {
  it('allows 3 proven pending bookings per mail domain that is not a public provider, however many addresses it invents', async () => {
    const car = (await newCar()).id;
    const days = nextDays(120);
    const domain = `catchall-${randomUUID().slice(0, 6)}.test`;
    for (let i = 0; i < 3; i++) {
      const made = await proven(visitor(), car, { ...days(), guest_email: `r${i}@${domain}` });
      expect(made.error).toBeNull();
    }
    // Creating more is refused at once (and so would confirming one made before).
    const fourth = await create(visitor(), car, { ...days(), guest_email: `r3@${domain}` });
    expectCode(fourth.error, 'too_many_pending_for_domain');
    expect(detail(fourth.error)).toEqual({ limit: 3, retry_after: null, scope: 'domain' });
    // A customer whose account is on that domain counts too.
    const customer = await newCustomer();
    await sql(`update auth.users set email = $1 where id = $2`, [`staff@${domain}`, customer.id]);
    const theirs = await bookingWithLicence(customer.client, car, days(), true);
    expectCode((await createBooking(customer.client, theirs)).error, 'too_many_pending_for_domain');
    // Public providers count mailbox by mailbox.
    for (let i = 0; i < 4; i++) {
      expect((await proven(visitor(), car, { ...days(), ...guestContact() })).error).toBeNull();
    }
  });

  it('confirming is refused too once the domain holds its share: the booking stays unconfirmed', async () => {
    const car = (await newCar()).id;
    const days = nextDays(130);
    const domain = `wave-${randomUUID().slice(0, 6)}.test`;
    const waiting: Booking[] = [];
    for (let i = 0; i < 4; i++) {
      const { data, error } = await create(visitor(), car, {
        ...days(),
        guest_email: `w${i}@${domain}`,
      });
      expect(error).toBeNull();
      waiting.push(data as Booking);
    }
    for (const b of waiting.slice(0, 3)) await confirmContact(b);
    await sql(
      `update internal.guest_confirmations set code_hash = internal.confirmation_code_hash($1, $2)
        where booking_id = $1`,
      [waiting[3]!.id, TEST_CONFIRMATION_CODE],
    );
    const { data } = await visitor().rpc('confirm_guest_booking', {
      reference: waiting[3]!.reference,
      code: TEST_CONFIRMATION_CODE,
    });
    expect(data).toMatchObject({
      confirmed: false,
      reason: 'too_many_pending_for_domain',
      detail: { limit: 3, scope: 'domain' },
    });
    expect((await storedBooking(waiting[3]!.id)).contact_confirmed_at).toBeNull();
  });

  it('allows 6 proven pending bookings from one address on private domains, whatever the domains', async () => {
    const car = (await newCar()).id;
    const days = nextDays(140);
    const ip = randomIp();
    for (let i = 0; i < 6; i++) {
      const domain = `own-${i}-${randomUUID().slice(0, 6)}.test`;
      expect(
        (await proven(visitor(ip), car, { ...days(), guest_email: `a@${domain}` })).error,
      ).toBeNull();
    }
    const seventh = await create(visitor(ip), car, {
      ...days(),
      guest_email: `a@more-${randomUUID().slice(0, 6)}.test`,
    });
    expectCode(seventh.error, 'too_many_pending_from_address');
    expect(detail(seventh.error)).toEqual({
      limit: 6,
      retry_after: null,
      scope: 'private_domains',
    });
    // Travellers with public mailboxes behind the same address book as usual.
    expect((await proven(visitor(ip), car, { ...days(), ...guestContact() })).error).toBeNull();
  });

  it('lets one address hold at most its share of the fleet’s car-days (here 1 %), long rentals first', async () => {
    await withSettings({ max_fleet_share_per_address: 1 }, { max_fleet_share_per_address: 10 });
    const [{ capacity } = { capacity: 0 }] = await sql<{ capacity: number }>(
      `select (count(*) * 365)::int as capacity from public.cars where active`,
    );
    const ip = randomIp();
    const cars = await Promise.all([newCar(), newCar(), newCar(), newCar()]);
    // Proven 60-day rentals until the share is reached.
    let held = 0;
    let i = 0;
    for (;;) {
      const car = cars[i % cars.length]!.id;
      const start = 20 + 61 * Math.floor(i / cars.length);
      const made = await proven(visitor(ip), car, {
        ...guestContact(),
        start_at: algiersAt(start, 10),
        end_at: algiersAt(start + 60, 10),
      });
      if (made.error) {
        expectCode(made.error, 'too_many_pending_from_address');
        expect(detail(made.error)).toEqual({ limit: 1, retry_after: null, scope: 'fleet_share' });
        break;
      }
      held += 60;
      i += 1;
      expect(i).toBeLessThan(20);
    }
    // What it got is at most 1 % of the fleet's car-days (the capacity grew by the four cars).
    expect(held).toBeLessThanOrEqual(((capacity + 4 * 365) * 1) / 100);
    expect(held + 60).toBeGreaterThan(((capacity + 4 * 365) * 1) / 100);
    // A short rental from another address still goes through.
    expect(
      (
        await proven(visitor(), cars[0]!.id, {
          ...guestContact(),
          start_at: algiersAt(300, 10),
          end_at: algiersAt(302, 10),
        })
      ).error,
    ).toBeNull();
  });
});

describe('unconfirmed guest bookings from one client address (the airport rule)', () => {
  it('hold nothing, so any number at once; the hourly budget counts only those nobody confirmed', async () => {
    await withSettings(
      { max_unconfirmed_per_address_hour: 10 },
      { max_unconfirmed_per_address_hour: 100 },
    );
    const car = (await newCar()).id;
    const days = nextDays(150);
    const ip = randomIp();
    const made: Booking[] = [];
    for (let i = 0; i < 10; i++) {
      const { data, error } = await create(visitor(ip), car, days());
      expect(error).toBeNull();
      made.push(data as Booking);
    }
    const next = await create(visitor(ip), car, days());
    expectCode(next.error, 'booking_rate_limited');
    const first = String((await storedBooking(made[0]!.id)).created_at);
    expect(new Date(detail(next.error).retry_after!).getTime()).toBe(
      Math.floor((new Date(first).getTime() + 3_600_000) / 1000) * 1000,
    );
    // A traveller of that hour types the code: the address has room again at once.
    await confirmContact(made[9]!);
    expect((await create(visitor(ip), car, days())).error).toBeNull();
    // A signed-in customer behind the same address, and a guest elsewhere, book as usual.
    const customer = await newCustomer();
    const token = (await customer.client.auth.getSession()).data.session!.access_token;
    const signedIn = apiClient({ 'x-forwarded-for': ip, Authorization: `Bearer ${token}` });
    const mine = await bookingWithLicence(signedIn, car, days(), true);
    expect((await createBooking(signedIn, mine)).error).toBeNull();
    expect((await create(visitor(), car, days())).error).toBeNull();
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
    const settings = serviceClient(stackInfo(stack!));
    expect(
      (
        await settings
          .from('settings')
          .update({ max_unconfirmed_per_address_hour: 10, lookup_failures_per_address: 150 })
          .eq('id', 1)
      ).error,
    ).toBeNull();
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
    expect(refused).toBe('booking_rate_limited');

    // Failed guest lookups: the address's ceiling (150 here), whatever the headers say.
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          forger().rpc('find_guest_booking', {
            reference: newReference(),
            contact: `guess-${randomUUID().slice(0, 8)}@example.com`,
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
