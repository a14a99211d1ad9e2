import type { Notification } from '@/domain/rows';
import { db } from '@/infra/db';
import { supabase } from '@/infra/supabase';
import { fetchNotifications } from '@/sync/notifications-sync';
import {
  enqueueMarkAllNotificationsRead,
  enqueueMarkNotificationRead,
} from '@/sync/outbox/enqueue';

export { mergeNotifications, NOTIFICATIONS_FETCH_LIMIT } from '@/sync/notifications-sync';

/**
 * Fetches the user's notifications (docs/product.md §7: all fields, mine, newest first) into Dexie.
 * Resolves false when the fetch failed (logged only, docs/product.md §8); the cached list stays.
 */
export function refreshNotifications(userId: string): Promise<boolean> {
  return fetchNotifications(supabase, userId);
}

/**
 * Marks one notification read: at once in Dexie and queued for the server, in one transaction
 * (a mark that cannot be queued leaves it unread rather than read here only).
 */
export async function markNotificationRead(id: string): Promise<void> {
  await enqueueMarkNotificationRead(id, async () => {
    const row = await db.notifications.get(id);
    if (!row || row.is_read) return false;
    await db.notifications.update(id, { is_read: true, updated_at: new Date().toISOString() });
    return true;
  }).catch((error: unknown) => console.warn('[notifications] mark read not queued', error));
}

/** Marks every unread notification of the user read, here and (through the outbox) there. */
export async function markAllNotificationsRead(userId: string): Promise<void> {
  await enqueueMarkAllNotificationsRead(userId, async () => {
    const changed = await db.notifications
      .where('user_id')
      .equals(userId)
      .filter((n) => !n.is_read)
      .modify({ is_read: true, updated_at: new Date().toISOString() });
    return changed > 0;
  }).catch((error: unknown) => console.warn('[notifications] mark all read not queued', error));
}

/** The user's notifications on this device, newest first. */
export async function readNotifications(userId: string): Promise<Notification[]> {
  const rows = await db.notifications.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) =>
    a.created_at === b.created_at
      ? b.id.localeCompare(a.id)
      : b.created_at.localeCompare(a.created_at),
  );
}

/** References of the bookings this device knows, by booking id. */
export async function readBookingReferences(ids: string[]): Promise<Map<string, string>> {
  const rows = await db.bookings.bulkGet(ids);
  return new Map(rows.flatMap((b) => (b ? [[b.id, b.reference] as const] : [])));
}
