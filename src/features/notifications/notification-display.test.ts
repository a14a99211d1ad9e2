import { beforeAll, describe, expect, it } from 'vitest';

import { stageOutcome } from '@/domain/booking-outcomes';
import statusNotificationTypeSql from '../../../supabase/schema/internal/functions/status_notification_type.sql?raw';

import { activateLocale, i18n, loadFeatureCatalog } from '@/infra/i18n';

import {
  badgeText,
  notificationAvatar,
  notificationBody,
  notificationCategory,
  notificationReason,
  notificationStage,
  notificationTitle,
  relativeTime,
} from '@/features/notifications/notification-display';

describe('notification display', () => {
  it('maps the types to the display categories', () => {
    expect(notificationCategory('booking_accepted')).toBe(1);
    expect(notificationCategory('booking_rejected')).toBe(2);
    expect(notificationCategory('booking_completed')).toBe(3);
    expect(notificationCategory('booking_cancelled')).toBe(4);
    // Refused when it reached the server: a failure, like a rejection.
    expect(notificationCategory('booking_refused')).toBe(2);
    expect(notificationCategory('booking_started')).toBe(0);
    expect(notificationCategory('anything_else')).toBe(0);
  });

  it('gives each category an avatar kind', () => {
    expect(notificationAvatar(1)).toEqual({ kind: 2, status: 'succeed' });
    expect(notificationAvatar(2)).toEqual({ kind: 2, status: 'failed' });
    expect(notificationAvatar(4)).toEqual({ kind: 2, status: 'failed' });
    expect(notificationAvatar(3)).toEqual({ kind: 1 });
    expect(notificationAvatar(0)).toEqual({ kind: 0 });
  });

  it("caps the badge at 99, shown as '99+'", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(5000)).toBe('99+');
  });

  it('says how long ago, in the given language', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(relativeTime('2026-03-01T11:59:40Z', now, 'en')).toBe('now');
    expect(relativeTime('2026-03-01T11:55:00Z', now, 'en')).toBe('5 minutes ago');
    expect(relativeTime('2026-03-01T09:00:00Z', now, 'en')).toBe('3 hours ago');
    expect(relativeTime('2026-02-28T12:00:00Z', now, 'en')).toBe('yesterday');
    expect(relativeTime('2026-03-01T11:55:00Z', now, 'fr')).toBe('il y a 5 minutes');
  });
});

describe('notification texts in each language', () => {
  beforeAll(() => Promise.all([loadFeatureCatalog('notifications'), loadFeatureCatalog('domain')]));

  it('translates the titles and sentences', async () => {
    await activateLocale('en');
    expect(i18n._(notificationTitle('booking_accepted'))).toBe('Booking accepted');
    expect(i18n._(notificationTitle('something_new'))).toBe('Booking update');
    expect(notificationBody(i18n, 'booking_cancelled', 'KR-7K3M-9QXD')).toBe(
      'Your booking KR-7K3M-9QXD has been cancelled.',
    );
    expect(notificationBody(i18n, 'booking_rejected', null)).toBe(
      'Your booking has been rejected.',
    );
    // Why: staff's words as typed, or the refusal's code in words.
    expect(
      notificationReason(i18n, { type: 'booking_rejected', reason: 'Car in the garage' }),
    ).toBe('Reason: Car in the garage');
    expect(
      notificationReason(i18n, { type: 'booking_refused', reason_code: 'car_unavailable' }),
    ).toBe('This car was booked by someone else for these dates.');
    expect(notificationReason(i18n, { type: 'booking_accepted', reason: null })).toBeNull();

    await activateLocale('ar');
    expect(i18n._(notificationTitle('booking_accepted'))).toBe('تم قبول الحجز');
    expect(notificationBody(i18n, 'booking_accepted', 'KR-7K3M-9QXD')).toBe(
      'تم تأكيد حجزك KR-7K3M-9QXD. إلى اللقاء قريبًا!',
    );

    await activateLocale('fr');
    expect(i18n._(notificationTitle('booking_completed'))).toBe('Location terminée');
    expect(notificationBody(i18n, 'something_new', null)).toBe(
      'Votre réservation a été mise à jour.',
    );
  });
});

describe('one wording for a booking: the bell says what the card says', () => {
  beforeAll(() => Promise.all([loadFeatureCatalog('notifications'), loadFeatureCatalog('domain')]));

  // Every type SQL writes: one per status (the live internal.status_notification_type) and a
  // refusal at sync (report_refused_booking).
  const statusTypes = [...statusNotificationTypeSql.matchAll(/then '([a-z_]+)'/g)].map(
    (match) => match[1]!,
  );
  const types = [...statusTypes, 'booking_refused'];

  it('reads the types SQL writes (the reading itself works)', () => {
    expect(statusTypes).toEqual(expect.arrayContaining(['booking_accepted', 'booking_expired']));
    expect(statusTypes.length).toBeGreaterThanOrEqual(6);
  });

  it('titles each notification with the heading of the stage it tells of', () => {
    for (const type of types) {
      const stage = notificationStage(type);
      expect(stage, type).not.toBeNull();
      expect(notificationTitle(type).id, type).toBe(stageOutcome(stage!, 'customer').heading.id);
    }
  });

  it('says a rental started and a request expired in their own words, not as an update', async () => {
    await activateLocale('fr');
    expect(i18n._(notificationTitle('booking_started'))).toBe('Location en cours');
    expect(notificationBody(i18n, 'booking_started', 'KR-7K3M-9QXD')).toBe(
      'Votre location KR-7K3M-9QXD a commencé. Bonne route !',
    );
    expect(i18n._(notificationTitle('booking_expired'))).toBe('Réservation expirée');
    expect(notificationTitle('booking_started').id).not.toBe(notificationTitle('something_new').id);
  });
});
