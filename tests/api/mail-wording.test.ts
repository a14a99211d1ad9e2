/**
 * One wording for a booking's stage (docs/i18n.md, "One wording per stage"): a mail about a
 * booking is titled with the heading its card gives that stage (src/domain/booking-outcomes.ts),
 * the words the bell uses too (src/features/notifications/notification-display.ts). The mails'
 * words live in SQL (internal.mail_texts, internal.outcome_mail_texts), the headings in the Lingui
 * catalogs: this reads the live SQL texts and compares them with the compiled headings in French,
 * English and Arabic, so the two homes cannot drift.
 */
import { setupI18n, type Messages } from '@lingui/core';
import { describe, expect, it } from 'vitest';

import { stageOutcome, type Stage } from '../../src/domain/booking-outcomes.ts';
import { notificationStage } from '../../src/features/notifications/notification-display.ts';
import { messages as arDomain } from '../../src/locales/ar/domain.po';
import { messages as enDomain } from '../../src/locales/en/domain.po';
import { messages as frDomain } from '../../src/locales/fr/domain.po';
import { sql } from '../support/clients.ts';

const catalogs: Record<'fr' | 'en' | 'ar', Messages> = {
  fr: frDomain,
  en: enDomain,
  ar: arDomain,
};
const LOCALES = ['fr', 'en', 'ar'] as const;

/** The texts every booking mail is built from, as guest_mail and refusal_mail merge them. */
async function liveTexts(locale: string): Promise<Record<string, string>> {
  const [row] = await sql<{ t: Record<string, string> }>(
    'select internal.mail_texts($1) || internal.outcome_mail_texts($1) as t',
    [locale],
  );
  return row!.t;
}

/**
 * The stage a mail kind tells of: a booking's news has the notification's type as its kind
 * (internal.status_notification_type, report_refused_booking); the guest's confirmation code is
 * the mail of a request awaiting its e-mail confirmation.
 */
function mailStage(kind: string): Stage | null {
  return kind === 'guest_confirmation' ? 'awaiting_confirmation' : notificationStage(kind);
}

/** The mail kinds SQL knows: every text with its `_body`, as internal.guest_mail reads them. */
function mailKinds(texts: Record<string, string>): string[] {
  return Object.keys(texts).filter((key) => `${key}_body` in texts);
}

describe('a mail about a stage is titled with the card’s heading for it', () => {
  it('reads every mail kind the database writes (the reading itself works)', async () => {
    const kinds = mailKinds(await liveTexts('fr'));
    expect(kinds).toEqual(
      expect.arrayContaining([
        'guest_confirmation',
        'booking_received',
        'booking_accepted',
        'booking_rejected',
        'booking_started',
        'booking_completed',
        'booking_cancelled',
        'booking_expired',
        'booking_refused',
      ]),
    );
    // Each names a stage: a new kind without one fails here instead of wording itself apart.
    for (const kind of kinds) expect(mailStage(kind), kind).not.toBeNull();
  });

  it.each(LOCALES)('in %s, every subject is the stage’s heading', async (locale) => {
    const texts = await liveTexts(locale);
    const i18n = setupI18n({ locale, messages: { [locale]: catalogs[locale] } });
    for (const kind of mailKinds(texts)) {
      const stage = mailStage(kind)!;
      // Guests and customers get the mails; both read the same heading (staff have their own).
      for (const audience of ['guest', 'customer'] as const) {
        const heading = stageOutcome(stage, audience).heading;
        expect(catalogs[locale][heading.id], `${locale} ${stage}: compiled`).toBeDefined();
        expect(texts[kind], `${locale} ${kind} (${audience})`).toBe(i18n._(heading));
      }
    }
  });
});
