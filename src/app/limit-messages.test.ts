import type { MessageDescriptor } from '@lingui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { LIMITS } from '@/domain/limits';
import { activateLocale, i18n, loadFeatureCatalog } from '@/infra/i18n';

import { authErrorMessages } from '@/features/auth/auth-errors';
import { authFieldMessages } from '@/features/auth/auth-messages';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/features/auth/auth.schema';
import { validationMessages } from '@/features/booking/validation-messages';

/**
 * A message that states a limit takes the number from where the rule lives (src/domain/limits.ts,
 * auth.schema.ts), or is held to it here, so the sentence a user reads cannot drift from what the
 * app and the database enforce. Each is read in the three languages with the limit's current value
 * (a large number as each language writes it: "2 000 000", "2,000,000", "2٬000٬000").
 */
const stated: Array<[string, MessageDescriptor, number[]]> = [
  ['rental_too_long', bookingErrorMessage('rental_too_long'), [LIMITS.rentalDays]],
  [
    'additional_requests_too_long',
    bookingErrorMessage('additional_requests_too_long'),
    [LIMITS.text],
  ],
  ['deposit_reason_too_long', bookingErrorMessage('deposit_reason_too_long'), [LIMITS.text]],
  ['notes_too_long', bookingErrorMessage('notes_too_long'), [LIMITS.text]],
  ['reason_too_long', bookingErrorMessage('reason_too_long'), [LIMITS.blockReason]],
  ['odometer_invalid', bookingErrorMessage('odometer_invalid'), [LIMITS.odometerKm]],
  ['name_too_long', bookingErrorMessage('name_too_long'), [LIMITS.name]],
  ['profileName', authErrorMessages.profileName, [LIMITS.name]],
  ['profileUnderAge', authErrorMessages.profileUnderAge, [LIMITS.ageMin]],
  ['profileAddress', authErrorMessages.profileAddress, [LIMITS.address]],
  ['weakLength', authErrorMessages.weakLength, [PASSWORD_MIN]],
  ['passwordTooLong', authErrorMessages.passwordTooLong, [PASSWORD_MAX]],
  ['fullName.max', authFieldMessages['fullName.max'], [LIMITS.name]],
  ['age.min', authFieldMessages['age.min'], [LIMITS.ageMin]],
  ['address.max', authFieldMessages['address.max'], [LIMITS.address]],
  ['password.min', authFieldMessages['password.min'], [PASSWORD_MIN]],
  ['password.max', authFieldMessages['password.max'], [PASSWORD_MAX]],
];

describe('messages that state a limit', () => {
  beforeAll(async () => {
    for (const name of ['domain', 'auth', 'booking'] as const) await loadFeatureCatalog(name);
  });
  afterAll(() => activateLocale('fr'));

  for (const locale of ['fr', 'en', 'ar'] as const) {
    it(`say the limit's own number in ${locale}`, async () => {
      await activateLocale(locale);
      for (const [name, message, numbers] of stated) {
        const text = i18n._(message);
        const ungrouped = text.replace(/(?<=\d)[\s\u00a0\u202f,\u066c](?=\d{3}(?!\d))/g, '');
        for (const number of numbers) expect(ungrouped, name).toContain(String(number));
        // Nothing left unfilled.
        expect(text, name).not.toMatch(/\{\w+\}/);
      }
      const rental = validationMessages(i18n).rentalTooLong;
      expect(rental).toContain(String(LIMITS.rentalDays));
      expect(rental).not.toMatch(/\{\w+\}/);
    });
  }
});
