import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';

import { bookingErrorMessage } from '@/domain/booking-errors';
import type { Notification, NotificationType } from '@/domain/rows';

/** docs/product.md §9: the list is refetched every 30 s; the badge counts up to 99, then shows '99+'. */
export const NOTIFICATION_POLL_MS = 30_000;
export const BADGE_MAX = 99;

/** docs/product.md §3: 1 accepted, 2 rejected, 3 completed, 4 cancelled, 0 anything else (generic). */
export type NotificationCategory = 0 | 1 | 2 | 3 | 4;

export function notificationCategory(type: NotificationType): NotificationCategory {
  switch (type) {
    case 'booking_accepted':
      return 1;
    case 'booking_rejected':
    case 'booking_refused':
      return 2;
    case 'booking_completed':
      return 3;
    case 'booking_cancelled':
      return 4;
    default:
      return 0;
  }
}

/**
 * docs/product.md §3 avatar kinds: 0 a person (image or initials; here the Kiraa team), 1 a calendar icon,
 * 2 a result, 'succeed' or otherwise failed.
 */
export type NotificationAvatar =
  { kind: 0 } | { kind: 1 } | { kind: 2; status: 'succeed' | 'failed' };

export function notificationAvatar(category: NotificationCategory): NotificationAvatar {
  switch (category) {
    case 1:
      return { kind: 2, status: 'succeed' };
    case 2:
    case 4:
      return { kind: 2, status: 'failed' };
    case 3:
      return { kind: 1 };
    case 0:
      return { kind: 0 };
  }
}

const titles: Record<NotificationCategory, MessageDescriptor> = {
  0: msg`Mise à jour de réservation`,
  1: msg`Réservation acceptée`,
  2: msg`Réservation refusée`,
  3: msg`Location terminée`,
  4: msg`Réservation annulée`,
};

export function notificationTitle(category: NotificationCategory): MessageDescriptor {
  return titles[category];
}

/** The sentence under the title; names the booking by its reference when this device knows it. */
export function notificationBody(
  i18n: I18n,
  category: NotificationCategory,
  reference: string | null,
): string {
  if (reference) {
    switch (category) {
      case 1:
        return i18n._(msg`Votre réservation ${reference} est confirmée. À bientôt !`);
      case 2:
        return i18n._(msg`Votre réservation ${reference} a été refusée.`);
      case 3:
        return i18n._(msg`Votre location ${reference} est terminée. Merci ! Donnez votre avis.`);
      case 4:
        return i18n._(msg`Votre réservation ${reference} a été annulée.`);
      case 0:
        return i18n._(msg`Votre réservation ${reference} a été mise à jour.`);
    }
  }
  switch (category) {
    case 1:
      return i18n._(msg`Votre réservation est confirmée. À bientôt !`);
    case 2:
      return i18n._(msg`Votre réservation a été refusée.`);
    case 3:
      return i18n._(msg`Votre location est terminée. Merci ! Donnez votre avis.`);
    case 4:
      return i18n._(msg`Votre réservation a été annulée.`);
    case 0:
      return i18n._(msg`Votre réservation a été mise à jour.`);
  }
}

/**
 * Why, under the sentence: staff's words for a rejection or a cancellation, the reason in words
 * for a booking refused when it reached the server; null when there is nothing to add.
 */
export function notificationReason(
  i18n: I18n,
  notification: Pick<Notification, 'type' | 'reason' | 'reason_code'>,
): string | null {
  if (notification.type === 'booking_refused') {
    return i18n._(bookingErrorMessage(notification.reason_code));
  }
  const reason = notification.reason?.trim();
  return reason ? i18n._(msg`Motif : ${reason}`) : null;
}

/** The badge's text: null when nothing is unread, '99+' past 99. */
export function badgeText(unread: number): string | null {
  if (!Number.isFinite(unread) || unread <= 0) return null;
  return unread > BADGE_MAX ? `${BADGE_MAX}+` : String(Math.floor(unread));
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "il y a 5 minutes", "5 minutes ago", "منذ 5 دقائق" — or "now" under a minute. */
export function relativeTime(iso: string, nowMs: number, locale: string): string {
  const seconds = Math.round((Date.parse(iso) - nowMs) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}
