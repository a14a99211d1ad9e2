/**
 * A booking queued offline and refused when it reaches the server is told by the server
 * (`report_refused_booking`, docs/database.md): the server re-runs create_booking's own checks on
 * the very payload, records a refusal once per booking id, mails the contact in the payload's
 * language (reference, the reason in words, what to do, a link to the catalogue) and notifies a
 * signed-in owner; replays answer the same and never mail twice; transient refusals and bad
 * payloads raise as create_booking does; one address cannot turn it into a mail cannon or a table
 * filler.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';

import { sql, waitForMail } from '../support/clients.ts';
import {
  PUBLIC_BOOKING_KEYS,
  SEED,
  adminClient,
  algiersAt,
  book,
  bookingWithLicence,
  createBooking,
  draft,
  expectCode,
  expectDenied,
  guestContact,
  newCar,
  newCustomer,
  randomIp,
  visitor,
  type BookingPayload,
  type Customer,
} from '../support/fixtures.ts';

type Refused = { status: 'refused'; reference: string; code: string; notified: boolean };
type OutboxMail = {
  to_email: string;
  subject: string;
  body_text: string;
  kind: string;
  locale: string;
};

let car: string;
let site: string;
let day = 250;

function report(client: SupabaseClient, p: Record<string, unknown>) {
  return client.rpc('report_refused_booking', { p });
}

function mailsFor(bookingId: string): Promise<OutboxMail[]> {
  return sql<OutboxMail>(
    `select to_email, subject, body_text, kind, locale from internal.mail_outbox
      where booking_id = $1 order by id`,
    [bookingId],
  );
}

async function refusalRows(bookingId: string) {
  return sql<{ code: string; notified: boolean }>(
    `select code, notified from public.booking_refusals where id = $1`,
    [bookingId],
  );
}

/** A guest's payload (licence uploaded) for days the car already holds for someone else. */
async function takenPayload(
  client: SupabaseClient,
  overrides: Partial<BookingPayload> = {},
  signedIn = false,
): Promise<BookingPayload> {
  day += 2;
  const dates = { start_at: algiersAt(day, 10), end_at: algiersAt(day, 18) };
  await book(visitor(), car, dates);
  const payload = await bookingWithLicence(client, car, { ...dates, ...overrides }, signedIn);
  expectCode((await createBooking(client, payload)).error, 'car_unavailable');
  return payload;
}

beforeAll(async () => {
  car = (await newCar()).id;
  site = (await sql<{ site_url: string }>(`select site_url from public.settings`))[0]!.site_url;
});

describe('report_refused_booking for a guest', () => {
  it('records a car taken meanwhile, mails the guest once in the payload’s language, and answers replays the same', async () => {
    const device = visitor();
    const payload = await takenPayload(device, { locale: 'en', guest_name: 'Evil http://x.co' });
    const { data, error } = await report(device, payload);
    expect(error).toBeNull();
    expect(data).toEqual({
      status: 'refused',
      reference: payload.reference,
      code: 'car_unavailable',
      notified: true,
    });

    const mails = await mailsFor(payload.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to_email: payload.guest_email,
      kind: 'booking_refused',
      locale: 'en',
      subject: `Kiraa · Booking refused by the server · ${payload.reference}`,
    });
    const body = mails[0]!.body_text;
    expect(body).toContain(`Reference: ${payload.reference}`);
    expect(body).toContain('another customer booked this car for these dates');
    expect(body).toContain(`${site}/cars`);
    // The car and the dates it was for (issue 20), in Algiers time.
    const carName = (
      await sql<{ name: string }>('select name from public.cars where id = $1', [car])
    )[0]!.name;
    expect(body).toContain(`Car: ${carName}`);
    expect(body).toMatch(/Pickup: \d{2}\/\d{2}\/\d{4} 10:00, /);
    expect(body).toMatch(/Return: \d{2}\/\d{2}\/\d{4} 18:00, /);
    // Nothing the requester typed: the address is not confirmed.
    expect(body).not.toContain('Evil');
    expect(body).not.toContain('x.co');
    expect(body).not.toContain('Référence');

    // Replays (the outbox, the service worker's background sync) answer the same, mail nothing.
    for (const client of [device, visitor()]) {
      const again = await report(client, payload);
      expect(again.error).toBeNull();
      expect(again.data).toEqual(data);
    }
    expect(await mailsFor(payload.id)).toHaveLength(1);
    expect(await refusalRows(payload.id)).toEqual([{ code: 'car_unavailable', notified: true }]);

    // The guest reads it in the dev mailbox.
    const mail = await waitForMail(payload.guest_email!, (m) =>
      m.subject.includes(payload.reference),
    );
    expect(mail.text).toContain('another customer booked this car');
  });

  it('mails in French by default and in Arabic when asked', async () => {
    const fr = await takenPayload(visitor());
    expect((await report(visitor(), fr)).data).toMatchObject({ code: 'car_unavailable' });
    expect((await mailsFor(fr.id))[0]!.subject).toBe(
      `Kiraa · Réservation refusée par le serveur · ${fr.reference}`,
    );
    const ar = await takenPayload(visitor(), { locale: 'ar' });
    expect((await report(visitor(), ar)).data).toMatchObject({ code: 'car_unavailable' });
    const mail = (await mailsFor(ar.id))[0]!;
    expect(mail.locale).toBe('ar');
    expect(mail.body_text).toContain(`المرجع: ${ar.reference}`);
  });

  it('records what the world changed: a retired car, a start that passed', async () => {
    const retired = draft(SEED.cars.retiredClio4, guestContact());
    const a = await report(visitor(), retired);
    expect(a.error).toBeNull();
    expect(a.data).toMatchObject({ status: 'refused', code: 'car_not_found' });
    expect((await mailsFor(retired.id))[0]!.body_text).toContain(
      "cette voiture n'est plus proposée",
    );

    const late = draft(car, {
      ...guestContact(),
      start_at: new Date(Date.now() - 3_600_000).toISOString(),
      end_at: algiersAt(2, 10),
    });
    const b = await report(visitor(), late);
    expect(b.error).toBeNull();
    expect(b.data).toMatchObject({ status: 'refused', code: 'dates_in_past' });
  });

  it('answers booking_not_refused when the booking would be accepted now, and records nothing', async () => {
    const device = visitor();
    day += 2;
    const payload = await bookingWithLicence(device, car, {
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day, 18),
    });
    expectCode((await report(device, payload)).error, 'booking_not_refused');
    expect(await refusalRows(payload.id)).toEqual([]);
    expect(await mailsFor(payload.id)).toEqual([]);
    // The client then sends create_booking again, and it works.
    expect((await createBooking(device, payload)).error).toBeNull();
  });

  it('answers created with the public projection when the booking exists after all', async () => {
    const device = visitor();
    day += 2;
    const payload = await bookingWithLicence(device, car, {
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day, 18),
    });
    const created = await createBooking(device, payload);
    expect(created.error).toBeNull();
    const { data, error } = await report(visitor(), payload);
    expect(error).toBeNull();
    const answer = data as { status: string; booking: Record<string, unknown> };
    expect(answer.status).toBe('created');
    expect(Object.keys(answer.booking).sort()).toEqual([...PUBLIC_BOOKING_KEYS].sort());
    expect(answer.booking).toMatchObject({ id: payload.id, reference: payload.reference });
  });

  it('refuses a replay with other content (idempotency_key_reused)', async () => {
    const payload = await takenPayload(visitor());
    expect((await report(visitor(), payload)).error).toBeNull();
    expectCode(
      (await report(visitor(), { ...payload, guest_email: 'someone.else@example.com' })).error,
      'idempotency_key_reused',
    );
    expect(await mailsFor(payload.id)).toHaveLength(1);
  });

  it('validates the payload like create_booking and records nothing for a bad one', async () => {
    const base = draft(SEED.cars.retiredClio4, guestContact());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, guest_email: 'a@b.c>, victim@example.com' }, 'invalid_email'],
      [{ ...base, guest_name: 'Line\nBreak' }, 'invalid_name'],
      [{ ...base, guest_email: undefined }, 'guest_contact_required'],
      [{ ...base, reference: 'KR-NOPE' }, 'invalid_reference'],
      [{ ...base, locale: 'de' }, 'invalid_payload'],
      [{ ...base, id: 'not-a-uuid' }, 'invalid_payload'],
    ];
    for (const [p, code] of cases) {
      expectCode((await report(visitor(), p)).error, code);
    }
    expect(await refusalRows(base.id)).toEqual([]);
    expectCode((await visitor().rpc('report_refused_booking', { p: [] })).error, 'invalid_payload');
  });

  it('raises transient refusals as create_booking does (a mailbox with 3 proven pending bookings), recording nothing', async () => {
    const contact = guestContact();
    for (let i = 0; i < 3; i++) {
      day += 1;
      await book(visitor(), car, {
        ...contact,
        start_at: algiersAt(day, 10),
        end_at: algiersAt(day, 12),
      });
    }
    day += 1;
    const device = visitor();
    const payload = await bookingWithLicence(device, car, {
      ...contact,
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day, 12),
    });
    expectCode((await report(device, payload)).error, 'too_many_pending_for_contact');
    expect(await refusalRows(payload.id)).toEqual([]);
  });
});

describe('report_refused_booking for a signed-in customer', () => {
  let customer: Customer;
  beforeAll(async () => {
    customer = await newCustomer();
  });

  it('mails the account’s address, writes a booking_refused notification, and is the owner’s alone', async () => {
    const payload = await takenPayload(customer.client, { locale: 'fr' }, true);
    const { data, error } = await report(customer.client, payload);
    expect(error).toBeNull();
    expect(data).toEqual({
      status: 'refused',
      reference: payload.reference,
      code: 'car_unavailable',
      notified: true,
    });
    const mails = await mailsFor(payload.id);
    expect(mails.map((m) => [m.to_email, m.kind, m.locale])).toEqual([
      [customer.email, 'booking_refused', 'fr'],
    ]);
    expect(mails[0]!.body_text).toContain('un autre client a réservé cette voiture');

    const { data: notes } = await customer.client
      .from('notifications')
      .select('type, booking_id, reference, reason, reason_code')
      .eq('reference', payload.reference);
    expect(notes).toEqual([
      {
        type: 'booking_refused',
        booking_id: null,
        reference: payload.reference,
        reason: null,
        reason_code: 'car_unavailable',
      },
    ]);

    // The owner reads their refusal (never anyone's contact); nobody else reads it.
    const mine = await customer.client
      .from('booking_refusals')
      .select('id, reference, code, notified');
    expect(mine.data).toEqual([
      { id: payload.id, reference: payload.reference, code: 'car_unavailable', notified: true },
    ]);
    expectDenied((await customer.client.from('booking_refusals').select('guest_email')).error);
    expectDenied((await visitor().from('booking_refusals').select('id')).error);
    const other = await newCustomer();
    expect((await other.client.from('booking_refusals').select('id')).data).toEqual([]);
    expectCode((await report(other.client, payload)).error, 'not_allowed');
    expectCode((await report(visitor(), payload)).error, 'not_allowed');
  });
});

describe('report_refused_booking under abuse', () => {
  it('never mails one address more than the mail limit (5 an hour): the rest answer notified false', async () => {
    const contact = guestContact();
    const answers: Refused[] = [];
    for (let i = 0; i < 6; i++) {
      const { data, error } = await report(visitor(), draft(SEED.cars.retiredClio4, contact));
      expect(error).toBeNull();
      answers.push(data as Refused);
    }
    expect(answers.map((a) => a.notified)).toEqual([true, true, true, true, true, false]);
    const rows = await sql<{ n: number }>(
      `select count(*)::int as n from internal.mail_outbox where to_email = $1`,
      [contact.guest_email],
    );
    expect(rows[0]!.n).toBe(5);
  });

  it('records at most the address’s hourly budget of refusals (booking_rate_limited with retry_after), another address unaffected', async () => {
    // The budget is shared with unconfirmed bookings (100 an hour); 20 here, for speed.
    const admin = await adminClient();
    expect(
      (await admin.from('settings').update({ max_unconfirmed_per_address_hour: 20 }).eq('id', 1))
        .error,
    ).toBeNull();
    onTestFinished(async () => {
      await admin.from('settings').update({ max_unconfirmed_per_address_hour: 100 }).eq('id', 1);
    });
    const ip = randomIp();
    for (let i = 0; i < 20; i++) {
      const { error } = await report(visitor(ip), draft(SEED.cars.retiredClio4, guestContact()));
      expect(error).toBeNull();
    }
    const refused = await report(visitor(ip), draft(SEED.cars.retiredClio4, guestContact()));
    expectCode(refused.error, 'booking_rate_limited');
    const detail = JSON.parse(refused.error!.details) as { limit: number; retry_after: string };
    expect(detail.limit).toBe(20);
    expect(Date.parse(detail.retry_after)).toBeGreaterThan(Date.now() + 50 * 60_000);
    // The same budget as create_booking's: the address cannot create either.
    day += 1;
    const device = visitor(ip);
    const payload = await bookingWithLicence(device, car, {
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day, 12),
    });
    expectCode((await createBooking(device, payload)).error, 'booking_rate_limited');
    const elsewhere = await report(visitor(), draft(SEED.cars.retiredClio4, guestContact()));
    expect(elsewhere.error).toBeNull();
  });

  it('stores one refusal when the same report arrives many times at once', async () => {
    const payload = await takenPayload(visitor());
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => report(visitor(), { ...payload, id: payload.id })),
    );
    for (const a of answers) expect(a.data).toMatchObject({ status: 'refused' });
    expect(await mailsFor(payload.id)).toHaveLength(1);
    expect(await refusalRows(payload.id)).toHaveLength(1);
  });
});
