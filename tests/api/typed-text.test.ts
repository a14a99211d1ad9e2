/**
 * What the wizard cleans is what the server accepts (src/domain/typed-text.ts,
 * internal.booking_draft): a name, phone or e-mail pasted with invisible marks is refused as typed
 * (invalid_name, invalid_phone, invalid_email), and accepted once cleaned the wizard's way; an
 * address the wizard calls invalid is one the server refuses too.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { normalizePhone } from '../../src/domain/phone.ts';
import { cleanTypedText, isMailableAddress } from '../../src/domain/typed-text.ts';
import {
  algiersAt,
  bookingWithLicence,
  createBooking,
  expectCode,
  newCar,
  visitor,
} from '../support/fixtures.ts';

let car: string;
let day = 400;

beforeAll(async () => {
  car = (await newCar({ name: 'Dacia Sandero' })).id;
});

async function attempt(contact: {
  guest_name?: string;
  guest_phone?: string;
  guest_email?: string;
}) {
  const guest = visitor();
  const d = day++;
  const payload = await bookingWithLicence(guest, car, {
    start_at: algiersAt(d % 300, 9),
    end_at: algiersAt(d % 300, 11),
    ...contact,
  });
  return createBooking(guest, payload);
}

describe('typed text: the wizard cleans what the server refuses', () => {
  it('a name with direction marks (U+202B…U+202C, the case of issue 20), isolates, a line break: refused raw, accepted cleaned', async () => {
    for (const raw of [
      '\u202bأمينة لعور\u202c',
      'Amina \u2067Laouar\u2069',
      'Karim\u2028Benali',
      '\ufeffYacine\u200b Haddad',
      'Nadia\u0007 K.',
    ]) {
      const cleaned = cleanTypedText(raw);
      expect(cleaned).not.toBe(raw);
      const refusedRaw = await attempt({ guest_name: raw });
      if (!raw.includes('\ufeff')) {
        expectCode(refusedRaw.error, 'invalid_name');
      }
      const accepted = await attempt({ guest_name: cleaned });
      expect(accepted.error, `${JSON.stringify(cleaned)} refused`).toBeNull();
    }
  });

  it('a phone copied from a contact card (embedded in U+202A…U+202C) and an e-mail with a zero-width space: accepted cleaned', async () => {
    const phone = '\u202a+213 555 12 34 56\u202c';
    expectCode((await attempt({ guest_phone: phone })).error, 'invalid_phone');
    const cleanedPhone = normalizePhone(cleanTypedText(phone));
    expect(cleanedPhone).toBe('+213555123456');
    expect((await attempt({ guest_phone: cleanedPhone! })).error).toBeNull();

    const email = 'amina.l\u200b@example.dz';
    expectCode((await attempt({ guest_email: email })).error, 'invalid_email');
    expect(isMailableAddress(cleanTypedText(email))).toBe(true);
    expect((await attempt({ guest_email: cleanTypedText(email) })).error).toBeNull();
  });

  it('an address the wizard refuses (not ASCII, two @) is refused by the server too', async () => {
    for (const email of ['amina@exämple.dz', 'é@example.dz', 'a@b@example.dz']) {
      expect(isMailableAddress(email)).toBe(false);
      expectCode((await attempt({ guest_email: email })).error, 'invalid_email');
    }
  });
});
