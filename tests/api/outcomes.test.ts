/**
 * Every final outcome reaches the person (docs/decisions.md, "Outcomes"): a signed-in customer
 * gets a notification that names the booking and carries staff's reason, and a mail to the
 * account's address in the booking's language; a guest gets a mail for each outcome, a rejection
 * with its reason. A customer's own cancellation tells nobody.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { sql } from '../support/clients.ts';
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

type OutcomeNotification = {
  type: string;
  booking_id: string | null;
  reference: string | null;
  reason: string | null;
  reason_code: string | null;
};

type OutboxMail = {
  to_email: string;
  subject: string;
  body_text: string;
  kind: string;
  locale: string;
};

let car: string;
let customer: Customer;
let day = 200;

async function customerBooking(locale: 'fr' | 'en' | 'ar' = 'fr'): Promise<Booking> {
  day += 2;
  return book(
    customer.client,
    car,
    { start_at: algiersAt(day, 10), end_at: algiersAt(day + 1, 10), locale },
    true,
  );
}

async function notificationsOf(bookingId: string): Promise<OutcomeNotification[]> {
  const { data, error } = await customer.client
    .from('notifications')
    .select('type, booking_id, reference, reason, reason_code')
    .eq('booking_id', bookingId)
    .order('created_at', { ascending: true });
  expect(error).toBeNull();
  return data as OutcomeNotification[];
}

/** What the database queued for `bookingId` (the relay sends it to the dev mailbox). */
function outbox(bookingId: string): Promise<OutboxMail[]> {
  return sql<OutboxMail>(
    `select to_email, subject, body_text, kind, locale from internal.mail_outbox
      where booking_id = $1 order by id`,
    [bookingId],
  );
}

async function staffSets(bookingId: string, status: string, reason: string | null) {
  const admin = await adminClient();
  const { error } = await admin.rpc('staff_set_booking_status', {
    booking_id: bookingId,
    status,
    reason,
  });
  expect(error).toBeNull();
}

beforeAll(async () => {
  car = (await newCar({ name: 'Hyundai Accent' })).id;
  customer = await newCustomer();
});

describe('a signed-in customer', () => {
  it('is told of a rejection by a notification with the reference and staff’s reason, and by a mail in the booking’s language', async () => {
    const b = await customerBooking('en');
    await staffSets(b.id, 'rejected', 'Licence unreadable: see https://evil.example');
    expect(await notificationsOf(b.id)).toEqual([
      {
        type: 'booking_rejected',
        booking_id: b.id,
        reference: b.reference,
        reason: 'Licence unreadable: see https://evil.example',
        reason_code: null,
      },
    ]);
    const mails = await outbox(b.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to_email: customer.email,
      kind: 'booking_rejected',
      locale: 'en',
      subject: `Kiraa · Booking declined by the agency · ${b.reference}`,
    });
    expect(mails[0]!.body_text).toContain('We are sorry: your booking could not be accepted.');
    // Staff's words are cleaned like any text in a mail: no link can come out of them.
    expect(mails[0]!.body_text).toContain(
      'Reason: Licence unreadable: see https: // evil. example',
    );
    expect(mails[0]!.body_text).toContain('My bookings');
    expect(mails[0]!.body_text).not.toContain('Réservation');
  });

  it('is told of an acceptance and of a cancellation by staff (with its reason), by notification and mail', async () => {
    const b = await customerBooking('ar');
    await staffMoves(b.id, ['reserved']);
    await staffSets(b.id, 'cancelled', 'Panne du véhicule');
    expect(await notificationsOf(b.id)).toEqual([
      {
        type: 'booking_accepted',
        booking_id: b.id,
        reference: b.reference,
        reason: null,
        reason_code: null,
      },
      {
        type: 'booking_cancelled',
        booking_id: b.id,
        reference: b.reference,
        reason: 'Panne du véhicule',
        reason_code: null,
      },
    ]);
    const mails = await outbox(b.id);
    expect(mails.map((m) => [m.kind, m.locale, m.to_email])).toEqual([
      ['booking_accepted', 'ar', customer.email],
      ['booking_cancelled', 'ar', customer.email],
    ]);
    expect(mails[0]!.body_text).toContain(`المرجع: ${b.reference}`);
    expect(mails[0]!.body_text).toContain('السيارة: Hyundai Accent');
    expect(mails[1]!.body_text).toContain('السبب: Panne du véhicule');
  });

  it('is not told of their own cancellation', async () => {
    const b = await customerBooking();
    const { error } = await customer.client.rpc('cancel_booking', { booking_id: b.id });
    expect(error).toBeNull();
    expect(await notificationsOf(b.id)).toEqual([]);
    expect(await outbox(b.id)).toEqual([]);
  });
});

describe('a guest', () => {
  it('gets a mail for acceptance, rejection (with the reason), cancellation by staff and expiry, in the booking’s language', async () => {
    const guest = visitor();
    day += 2;
    const accepted = await book(guest, car, {
      start_at: algiersAt(day, 10),
      end_at: algiersAt(day, 18),
      locale: 'ar',
    });
    await staffMoves(accepted.id, ['reserved']);
    const rejected = await book(guest, car, {
      start_at: algiersAt(day + 1, 10),
      end_at: algiersAt(day + 1, 18),
      locale: 'ar',
    });
    await staffSets(rejected.id, 'rejected', 'رخصة منتهية');
    const cancelled = await book(guest, car, {
      start_at: algiersAt(day + 2, 10),
      end_at: algiersAt(day + 2, 18),
      locale: 'en',
    });
    await staffSets(cancelled.id, 'cancelled', 'Vehicle broken down');
    const expired = await book(
      guest,
      car,
      { start_at: algiersAt(day + 3, 10), end_at: algiersAt(day + 3, 18), locale: 'en' },
      false,
      { confirm: false },
    );
    await sql(`update public.bookings set confirm_by = now() - interval '1 second' where id = $1`, [
      expired.id,
    ]);
    await sql(`select internal.expire_unconfirmed_bookings()`);

    const last = async (b: Booking) => (await outbox(b.id)).at(-1)!;
    expect(await last(accepted)).toMatchObject({ kind: 'booking_accepted', locale: 'ar' });
    const rejection = await last(rejected);
    expect(rejection).toMatchObject({ kind: 'booking_rejected', locale: 'ar' });
    expect(rejection.body_text).toContain('السبب: رخصة منتهية');
    const cancellation = await last(cancelled);
    expect(cancellation).toMatchObject({ kind: 'booking_cancelled', locale: 'en' });
    expect(cancellation.body_text).toContain('Reason: Vehicle broken down');
    expect(await last(expired)).toMatchObject({ kind: 'booking_expired', locale: 'en' });
    for (const b of [accepted, rejected, cancelled, expired]) {
      expect((await last(b)).to_email).toBe(b.guest_email);
      expect((await last(b)).body_text).toContain(b.reference);
    }
  });
});
