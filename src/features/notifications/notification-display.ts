import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';

import { bookingErrorMessage } from '@/domain/booking-errors';
import type { Stage } from '@/domain/booking-outcomes';
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

/**
 * The stage a notification tells of: its title is that stage's heading on the booking's card and
 * page (src/domain/booking-outcomes.ts), so the bell and the card say the same words.
 */
const stageOfType: Partial<Record<string, Stage>> = {
  booking_received: 'pending',
  booking_accepted: 'reserved',
  booking_rejected: 'rejected',
  booking_started: 'in_progress',
  booking_completed: 'completed',
  booking_cancelled: 'cancelled',
  booking_expired: 'expired',
  booking_refused: 'needs_attention',
};

export function notificationStage(type: NotificationType): Stage | null {
  return stageOfType[type] ?? null;
}

/**
 * The same French source as each stage's heading (one message id, so one translation per
 * language); notification-display.test.ts holds them equal. Written here, not read from the
 * domain, so the service worker loads only this feature's catalog.
 */
const titles: Record<Stage, MessageDescriptor | undefined> = {
  queued: undefined,
  sending: undefined,
  awaiting_confirmation: undefined,
  pending: msg`Réservation enregistrée`,
  reserved: msg`Réservation acceptée`,
  rejected: msg`Réservation refusée par l’agence`,
  in_progress: msg`Location en cours`,
  completed: msg`Location terminée`,
  cancelled: msg`Réservation annulée`,
  expired: msg`Réservation expirée`,
  needs_attention: msg`Réservation refusée par le serveur`,
};

const genericTitle = msg`Mise à jour de réservation`;

export function notificationTitle(type: NotificationType): MessageDescriptor {
  const stage = notificationStage(type);
  return (stage && titles[stage]) || genericTitle;
}

/** The sentence under the title; names the booking by its reference when this device knows it. */
export function notificationBody(
  i18n: I18n,
  type: NotificationType,
  reference: string | null,
): string {
  const stage = notificationStage(type);
  if (reference) {
    switch (stage) {
      case 'reserved':
        return i18n._(msg`Votre réservation ${reference} est confirmée. À bientôt !`);
      case 'rejected':
      case 'needs_attention':
        return i18n._(msg`Votre réservation ${reference} a été refusée.`);
      case 'in_progress':
        return i18n._(msg`Votre location ${reference} a commencé. Bonne route !`);
      case 'completed':
        return i18n._(msg`Votre location ${reference} est terminée. Merci ! Donnez votre avis.`);
      case 'cancelled':
        return i18n._(msg`Votre réservation ${reference} a été annulée.`);
      case 'expired':
        return i18n._(
          msg`Votre réservation ${reference} a expiré : l’adresse e-mail n’a pas été confirmée à temps.`,
        );
      default:
        return i18n._(msg`Votre réservation ${reference} a été mise à jour.`);
    }
  }
  switch (stage) {
    case 'reserved':
      return i18n._(msg`Votre réservation est confirmée. À bientôt !`);
    case 'rejected':
    case 'needs_attention':
      return i18n._(msg`Votre réservation a été refusée.`);
    case 'in_progress':
      return i18n._(msg`Votre location a commencé. Bonne route !`);
    case 'completed':
      return i18n._(msg`Votre location est terminée. Merci ! Donnez votre avis.`);
    case 'cancelled':
      return i18n._(msg`Votre réservation a été annulée.`);
    case 'expired':
      return i18n._(
        msg`Votre réservation a expiré : l’adresse e-mail n’a pas été confirmée à temps.`,
      );
    default:
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
