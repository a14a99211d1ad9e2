/**
 * The system notification the service worker shows for a push or a background check: the bell's
 * own wording (notification-display.ts, this feature's catalogs) in the language of the device,
 * so there is one home for it. Imported by src/sw.ts only: the page never loads these catalogs
 * this way. Each booking has one notification (`tag`): a newer one replaces the older.
 */
import { type I18n, setupI18n } from '@lingui/core';

import { isLocale, type Locale } from '@/domain/locale';
import { messages as ar } from '@/locales/ar/notifications.po';
import { messages as en } from '@/locales/en/notifications.po';
import { messages as fr } from '@/locales/fr/notifications.po';

import {
  notificationBody,
  notificationReason,
  notificationTitle,
} from '@/features/notifications/notification-display';

let i18n: I18n | null = null;

function catalogs(locale: Locale): I18n {
  i18n ??= setupI18n({ messages: { fr, en, ar } });
  i18n.activate(locale);
  return i18n;
}

export type SystemNotification = {
  title: string;
  options: NotificationOptions & { data: { url: string; notificationId: string | null } };
};

export type NewsItem = {
  type: string;
  booking_id: string | null;
  reference: string | null;
  reason: string | null;
  reason_code: string | null;
  notification_id: string | null;
  url: string;
};

/** Title, the bell's sentence with the reference, staff's reason; grouped per booking. */
export function systemNotification(item: NewsItem, locale: string): SystemNotification {
  const i18n = catalogs(isLocale(locale) ? locale : 'fr');
  // A refusal at sync names its reason in the domain's catalog: the bell shows it; here the
  // sentence says enough, and the click opens the booking with the reason.
  const reason =
    item.type === 'booking_refused'
      ? null
      : notificationReason(i18n, { type: item.type, reason: item.reason, reason_code: null });
  const body = notificationBody(i18n, item.type, item.reference);
  return {
    title: i18n._(notificationTitle(item.type)),
    options: {
      body: reason ? `${body}\n${reason}` : body,
      tag: `kiraa-booking-${item.booking_id ?? item.reference ?? 'news'}`,
      lang: isLocale(locale) ? locale : 'fr',
      dir: locale === 'ar' ? 'rtl' : 'ltr',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: item.url, notificationId: item.notification_id },
    },
  };
}
