/**
 * News of the traveller's bookings reaching this device, with or without the app on screen
 * (docs/offline-sync.md, "News: push and checks"):
 * - the guest bookings' refresh is src/sync/guest-refresh.ts;
 * - `applyPushMessage`: what a push says, written into Dexie at once (the notification, the guest
 *   booking's status), so every screen shows it, offline too;
 * - `savePushSubscription`: the device's push subscription on the server, for the signed-in user
 *   or for guest bookings (each through the guest lookup's proof), renewed at each start.
 * The page and the service worker run the same code.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import { type LocalBooking, syncStateOf } from '@/domain/local-booking';
import type { BookingStatus, Notification, NotificationType } from '@/domain/rows';
import { db } from '@/infra/db';
import {
  currentPushKeys,
  type PushKeys,
  pushPermission,
  requestPushPermission,
} from '@/infra/push';
import { guestClient, supabase } from '@/infra/supabase';
import { liveGuestBookings } from '@/sync/guest-refresh';

/** meta: the language the app was last shown in (the worker has no localStorage). */
export const DEVICE_LOCALE_KEY = 'ui.locale';

/** The language of the device's last session of the app, for what the worker shows. */
export async function deviceLocale(): Promise<string> {
  const value = (await db.meta.get(DEVICE_LOCALE_KEY))?.value;
  return typeof value === 'string' ? value : 'fr';
}

export async function rememberDeviceLocale(locale: string): Promise<void> {
  await db.meta.put({ key: DEVICE_LOCALE_KEY, value: locale });
}

/** meta: the guest bookings whose news this device asked to receive by push. */
export const PUSH_GUEST_BOOKINGS_KEY = 'push.guest_bookings';

/** What a push message carries (supabase/migrations/20261126200000_push.sql, push_payload). */
export type PushMessage = {
  v: 1;
  type: NotificationType;
  audience: 'customer' | 'guest';
  booking_id: string | null;
  reference: string | null;
  reason: string | null;
  reason_code: string | null;
  notification_id: string | null;
  locale: string;
  url: string;
  at: string;
};

export function isPushMessage(value: unknown): value is PushMessage {
  const m = value as Partial<PushMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.v === 1 &&
    typeof m.type === 'string' &&
    (m.audience === 'customer' || m.audience === 'guest') &&
    typeof m.url === 'string' &&
    m.url.startsWith('/')
  );
}

const statusOfType: Partial<Record<NotificationType | 'booking_expired', BookingStatus>> = {
  booking_accepted: 'reserved',
  booking_rejected: 'rejected',
  booking_started: 'in_progress',
  booking_completed: 'completed',
  booking_cancelled: 'cancelled',
  booking_expired: 'expired',
};

/** The notification type a new status means (internal.status_notification_type). */
export function statusNotificationType(status: string): NotificationType {
  const entry = Object.entries(statusOfType).find(([, s]) => s === status);
  return (entry?.[0] as NotificationType | undefined) ?? 'booking_updated';
}

/**
 * Writes what a push says into Dexie: a customer's notification (unread) for `userId`, or a
 * guest booking's new status. The next fetch brings the full rows; this is what the screens show
 * until then, and what they show offline.
 */
export async function applyPushMessage(message: PushMessage, userId: string | null): Promise<void> {
  if (message.audience === 'customer') {
    if (!userId || !message.notification_id) return;
    const existing = await db.notifications.get(message.notification_id);
    if (existing) return;
    const row: Notification = {
      id: message.notification_id,
      user_id: userId,
      booking_id: message.booking_id,
      type: message.type,
      is_read: false,
      created_at: message.at,
      updated_at: message.at,
      reference: message.reference,
      reason: message.reason,
      reason_code: message.reason_code,
    };
    await db.notifications.put(row);
    return;
  }
  const status = statusOfType[message.type];
  if (!message.booking_id || !status) return;
  await db.transaction('rw', db.bookings, async () => {
    const local = await db.bookings.get(message.booking_id!);
    if (!local || local.status === status) return;
    await db.bookings.update(local.id, {
      status,
      status_reason: message.reason ?? message.reason_code ?? local.status_reason,
      sync_state: syncStateOf(status),
      sync_error: null,
      updated_at: message.at,
    });
  });
}

/** How many notifications of `userId` are unread here (the badge). */
export function unreadCount(userId: string): Promise<number> {
  return db.notifications
    .where('user_id')
    .equals(userId)
    .filter((n) => !n.is_read)
    .count();
}

async function pushGuestBookingIds(): Promise<string[]> {
  const value = (await db.meta.get(PUSH_GUEST_BOOKINGS_KEY))?.value;
  return Array.isArray(value) ? (value as string[]) : [];
}

export type PushSaveResult = 'saved' | 'not_found' | 'finished' | 'failed';

/** The device's subscription for the signed-in user (an upsert: renewed at each start). */
export async function saveCustomerSubscription(
  client: SupabaseClient,
  userId: string,
  keys: PushKeys,
  locale: string,
): Promise<PushSaveResult> {
  const { error } = await client
    .from('push_subscriptions')
    .upsert({ user_id: userId, ...keys, locale }, { onConflict: 'user_id,endpoint' });
  if (error) console.warn('[push] subscription not saved', error);
  return error ? 'failed' : 'saved';
}

/**
 * The device's subscription for a guest booking, with the lookup's proof (its reference and the
 * contact given with it); remembered here so it is renewed at each start.
 */
export async function saveGuestSubscription(
  client: SupabaseClient,
  booking: Pick<LocalBooking, 'id' | 'reference' | 'guest_email' | 'guest_phone'>,
  keys: PushKeys,
  locale: string,
): Promise<PushSaveResult> {
  const { data, error } = await client.rpc('subscribe_guest_push', {
    reference: booking.reference,
    contact: booking.guest_email ?? booking.guest_phone ?? '',
    ...keys,
    locale,
  });
  if (error) {
    console.warn('[push] guest subscription not saved', error);
    return 'failed';
  }
  const answer = data as { subscribed: boolean; reason?: string };
  const ids = (await pushGuestBookingIds()).filter((id) => id !== booking.id);
  if (answer.subscribed) ids.push(booking.id);
  await db.meta.put({ key: PUSH_GUEST_BOOKINGS_KEY, value: ids });
  if (answer.subscribed) return 'saved';
  return answer.reason === 'booking_finished' ? 'finished' : 'not_found';
}

/** Whether this device asked for the pushes of this guest booking. */
export async function guestPushEnabled(bookingId: string): Promise<boolean> {
  return (await pushGuestBookingIds()).includes(bookingId);
}

/**
 * At each start, with permission granted: the subscription again for the signed-in user and for
 * each live guest booking that asked for it (browsers drop subscriptions silently, iOS above all).
 */
export async function renewPushSubscriptions(
  client: SupabaseClient,
  guest: SupabaseClient,
  userId: string | null,
  keys: PushKeys,
  locale: string,
): Promise<void> {
  if (userId) await saveCustomerSubscription(client, userId, keys, locale);
  const wanted = new Set(await pushGuestBookingIds());
  if (wanted.size === 0) return;
  for (const booking of await liveGuestBookings()) {
    if (wanted.has(booking.id)) await saveGuestSubscription(guest, booking, keys, locale);
  }
}

/** The page's renewal at start (the signed-in user's client; guests' with the anon key). */
export function renewThisDevice(userId: string | null, keys: PushKeys, locale: string) {
  return renewPushSubscriptions(supabase, guestClient(), userId, keys, locale);
}

export type PushChoice = 'saved' | 'denied' | 'unavailable' | 'not_found' | 'finished' | 'failed';

/**
 * Turns push on for a booking (from a click: the browser asks for permission only then): the
 * signed-in owner's subscription covers all their bookings; a guest's is bound to this booking
 * through the guest lookup's proof (its reference and contact). A refusal is remembered.
 */
export async function enablePush(
  booking: LocalBooking,
  userId: string | null,
  locale: string,
): Promise<PushChoice> {
  const permission = pushPermission() === 'granted' ? 'granted' : await requestPushPermission();
  if (permission === 'unsupported') return 'unavailable';
  if (permission !== 'granted') return 'denied';
  const keys = await currentPushKeys();
  if (!keys) return 'unavailable';
  await rememberDeviceLocale(locale);
  if (userId && booking.user_id === userId) {
    return saveCustomerSubscription(supabase, userId, keys, locale);
  }
  return saveGuestSubscription(guestClient(), booking, keys, locale);
}
