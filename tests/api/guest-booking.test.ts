/**
 * Guests: the mail once a guest booking's contact is confirmed, find_guest_booking (the booking only for
 * the right reference with the right email or phone; the same null for everything else; its limits
 * are in guest-lookup.test.ts) and staff news by mail.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { waitForMail } from '../support/clients.ts';
import {
  algiersAt,
  book,
  newCar,
  newReference,
  staffMoves,
  visitor,
  type Booking,
} from '../support/fixtures.ts';

let booking: Booking;
let car: string;

beforeAll(async () => {
  car = (await newCar({ name: 'Dacia Duster 4x4' })).id;
  booking = await book(visitor(), car, {
    start_at: algiersAt(15, 9),
    end_at: algiersAt(18, 18),
    guest_name: 'Meriem Saadi',
    guest_phone: '+213 (661) 23-45-67',
  });
});

/** Each lookup from a fresh address, so the per-address limit does not interfere. */
function lookup(reference: string, contact: string) {
  return visitor().rpc('find_guest_booking', { reference, contact });
}

describe('a guest booking', () => {
  it('once the contact is confirmed, mails the request in the booking’s language (French by default) with the booking and the name as a quoted field', async () => {
    const mail = await waitForMail(booking.guest_email!, (m) =>
      m.subject.includes('Réservation enregistrée'),
    );
    expect(mail.subject).toBe(`Kiraa · Réservation enregistrée · ${booking.reference}`);
    expect(mail.text).toContain(`Référence : ${booking.reference}`);
    expect(mail.text).toContain('Voiture : Dacia Duster 4x4');
    // Grouped by thousands with a no-break space ("12 500 DZD").
    const grouped = String(booking.total_dzd).replace(/\B(?=(\d{3})+$)/g, '\u00a0');
    expect(mail.text).toContain(`Total : ${grouped} DZD`);
    // Where to find it (settings.site_url is set on the test stack).
    expect(mail.text).toMatch(
      new RegExp(`Votre réservation : https?://\\S+/guest-booking\\?find=${booking.reference}`),
    );
    // Algiers time: 09:00 at +01:00, whatever the server's zone.
    expect(mail.text).toMatch(
      /Prise en charge : \d{2}\/\d{2}\/\d{4} 09:00, Aéroport d'Alger – Houari Boumediene/,
    );
    // The name is the guest's words: on a line of its own, quoted, never in the greeting.
    expect(mail.text.startsWith('Bonjour,\n')).toBe(true);
    expect(mail.text).toContain('Nom indiqué lors de la réservation : « Meriem Saadi »');
    // One language per mail.
    expect(mail.text).not.toContain('Reference:');
    expect(mail.text).not.toContain('المرجع');
  });

  it('cannot be read from the bookings table by a guest', async () => {
    const { data, error } = await visitor().from('bookings').select('*').eq('id', booking.id);
    expect(data).toBeNull();
    expect(error?.code).toBe('42501');
  });
});

describe('find_guest_booking', () => {
  it('returns the booking for the right reference with the right email (any case)', async () => {
    const { data, error } = await lookup(booking.reference, booking.guest_email!.toUpperCase());
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: booking.id, reference: booking.reference, status: 'pending' });
    expect(data).toEqual(booking);
  });

  it('returns the booking for the right phone written any usual way', async () => {
    for (const phone of ['+213661234567', '+213 661 23 45 67', '00213661234567', '0661 23 45 67']) {
      const { data, error } = await lookup(booking.reference, phone);
      expect(error).toBeNull();
      expect((data as Booking | null)?.id, phone).toBe(booking.id);
    }
  });

  it('reads the reference the Crockford way (case, dashes, O for 0, I and L for 1)', async () => {
    const typed = booking.reference
      .toLowerCase()
      .replace(/-/g, ' ')
      .replace(/0/g, 'o')
      .replace(/1/g, 'l');
    const { data } = await lookup(typed, booking.guest_email!);
    expect((data as Booking | null)?.id).toBe(booking.id);
  });

  it('answers the same null for a wrong reference, a wrong contact or a signed-in booking', async () => {
    const answers = await Promise.all([
      lookup(newReference(), booking.guest_email!),
      lookup(booking.reference, 'someone.else@example.com'),
      lookup(booking.reference, '+213661234568'),
      lookup(booking.reference, ''),
      lookup('', booking.guest_email!),
      lookup('nonsense', booking.guest_email!),
      // The seed's demo customer booking: no guest contact, never found this way.
      lookup('KR-3HXA-8WJS', 'client@kiraa.dz'),
    ]);
    for (const { data, error } of answers) {
      expect(error).toBeNull();
      expect(data).toBeNull();
    }
  });
  // The limits (per reference, per address): tests/api/guest-lookup.test.ts.
});

describe('staff news reaches a guest by mail', () => {
  let guest: SupabaseClient;
  beforeAll(() => {
    guest = visitor();
  });

  it('mails acceptance, start, completion, with the reference, in the booking’s language', async () => {
    const b = await book(guest, car, {
      start_at: algiersAt(40),
      end_at: algiersAt(42),
      locale: 'en',
    });
    await staffMoves(b.id, ['reserved']);
    const accepted = await waitForMail(b.guest_email!, (m) =>
      m.subject.includes('Booking accepted'),
    );
    expect(accepted.subject).toBe(`Kiraa · Booking accepted · ${b.reference}`);
    expect(accepted.text).toContain('Good news: your booking is confirmed.');
    expect(accepted.text).toContain('Name given when booking: « Sofiane Belkacem »');
    await staffMoves(b.id, ['in_progress', 'completed']);
    await waitForMail(b.guest_email!, (m) => m.subject.includes('Rental in progress'));
    const done = await waitForMail(b.guest_email!, (m) => m.subject.includes('Rental completed'));
    expect(done.text).toContain('Your rental is complete.');

    const ar = await book(guest, car, {
      start_at: algiersAt(44),
      end_at: algiersAt(45),
      locale: 'ar',
    });
    await staffMoves(ar.id, ['reserved']);
    const news = await waitForMail(ar.guest_email!, (m) => m.subject.includes('تم قبول الحجز'));
    expect(news.text).toContain(`المرجع: ${ar.reference}`);
    expect(news.text).toContain('خبر سار: تم تأكيد حجزك.');
  });

  it('mails a rejection with its reason, and a cancellation by staff', async () => {
    const rejected = await book(guest, car, { start_at: algiersAt(50), end_at: algiersAt(51) });
    await staffMoves(rejected.id, ['rejected']);
    const mail = await waitForMail(rejected.guest_email!, (m) =>
      m.subject.includes('Réservation refusée par l’agence'),
    );
    expect(mail.text).toContain('Motif : Véhicule en maintenance');

    const cancelled = await book(guest, car, { start_at: algiersAt(55), end_at: algiersAt(56) });
    await staffMoves(cancelled.id, ['reserved', 'cancelled']);
    const news = await waitForMail(cancelled.guest_email!, (m) =>
      m.subject.includes('Réservation annulée'),
    );
    expect(news.text).toContain(cancelled.reference);
  });
});
