/**
 * Booking mails say what is true and lead to the booking (issue 20;
 * 20261126300100_mail_links.sql): a rejected booking's mail does not offer to "change or
 * cancel" it and says how to book again; a cancelled one neither; every outcome mail links to
 * where the booking is found (a guest's lookup with the reference; a customer's My bookings);
 * amounts are grouped in each language's way.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { sql } from '../support/clients.ts';
import { algiersAt, book, newCar, newCustomer, staffMoves, visitor } from '../support/fixtures.ts';

type OutboxMail = { subject: string; body_text: string; kind: string };

let car: string;
let site: string;

beforeAll(async () => {
  car = (await newCar({ name: 'Renault Clio 5', daily_rate_dzd: 6250 })).id;
  site = (await sql<{ site_url: string }>('select site_url from public.settings'))[0]!.site_url;
});

async function mailOf(bookingId: string, kind: string): Promise<OutboxMail> {
  for (let i = 0; i < 50; i++) {
    const rows = await sql<OutboxMail>(
      `select subject, body_text, kind from internal.mail_outbox
        where booking_id = $1 and kind = $2 order by id desc limit 1`,
      [bookingId, kind],
    );
    if (rows[0]) return rows[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${kind} mail for ${bookingId}`);
}

describe('outcome mails', () => {
  it('a rejection: the reason, no "change or cancel", how to book again, the lookup link, a grouped total', async () => {
    const b = await book(visitor(), car, {
      start_at: algiersAt(200, 10),
      end_at: algiersAt(202, 10),
    });
    await staffMoves(b.id, ['rejected']);
    const mail = await mailOf(b.id, 'booking_rejected');
    expect(mail.subject).toBe(`Kiraa · Réservation refusée par l’agence · ${b.reference}`);
    expect(mail.body_text).toContain('Motif : Véhicule en maintenance');
    expect(mail.body_text).not.toContain('modifier ou l');
    expect(mail.body_text).toContain('faites une nouvelle réservation');
    expect(mail.body_text).toContain(
      `Votre réservation : ${site}/guest-booking?find=${b.reference}`,
    );
    expect(b.total_dzd).toBeGreaterThanOrEqual(10_000);
    const grouped = String(b.total_dzd).replace(/\B(?=(\d{3})+$)/g, '\u00a0');
    expect(mail.body_text).toContain(`Total : ${grouped} DZD`);
  });

  it('in English and Arabic: grouped "12,500" and "12 500", the link, no "change or cancel" once cancelled', async () => {
    const en = await book(visitor(), car, {
      start_at: algiersAt(204, 10),
      end_at: algiersAt(206, 10),
      locale: 'en',
    });
    await staffMoves(en.id, ['cancelled']);
    const enMail = await mailOf(en.id, 'booking_cancelled');
    expect(enMail.body_text).toContain(`Total: ${en.total_dzd.toLocaleString('en-US')} DZD`);
    expect(enMail.body_text).not.toContain('change or cancel');
    expect(enMail.body_text).toContain(`Your booking: ${site}/guest-booking?find=${en.reference}`);

    const ar = await book(visitor(), car, {
      start_at: algiersAt(208, 10),
      end_at: algiersAt(210, 10),
      locale: 'ar',
    });
    await staffMoves(ar.id, ['rejected']);
    const arMail = await mailOf(ar.id, 'booking_rejected');
    expect(arMail.body_text).not.toContain('للتعديل أو الإلغاء');
    expect(arMail.body_text).toContain('قدّم حجزًا جديدًا');
    expect(arMail.body_text).toContain(`حجزك: ${site}/guest-booking?find=${ar.reference}`);
  });

  it('a customer’s acceptance links to My bookings and still says how to change it (it is live)', async () => {
    const customer = await newCustomer();
    const b = await book(
      customer.client,
      car,
      { start_at: algiersAt(212, 10), end_at: algiersAt(214, 10) },
      true,
    );
    await staffMoves(b.id, ['reserved']);
    const mail = await mailOf(b.id, 'booking_accepted');
    expect(mail.body_text).toContain(`Votre réservation : ${site}/mybookings`);
    expect(mail.body_text).toContain('Pour la modifier ou l');
  });
});
