import type { Notification } from '@/domain/rows';
import { db } from '@/infra/db';
import { supabase } from '@/infra/supabase';
import {
  enqueueMarkAllNotificationsRead,
  enqueueMarkNotificationRead,
} from '@/sync/outbox/enqueue';

/** The newest notifications fetched per poll (the bell and the activity page read Dexie). */
export const NOTIFICATIONS_FETCH_LIMIT = 200;

/**
 * Puts the server's list of a user's notifications into Dexie, the one place the screens read.
 * - Read is final: a notification marked read on this device stays read even if the server has
 *   not heard it yet (the write waits in the outbox).
 * - A row the server no longer lists (within the window it returned) is removed.
 * - Rows of another user (a previous session on a shared device) are removed.
 */
export async function mergeNotifications(
  userId: string,
  rows: Notification[],
  limit = NOTIFICATIONS_FETCH_LIMIT,
): Promise<void> {
  await db.transaction('rw', db.notifications, async () => {
    await db.notifications.where('user_id').notEqual(userId).delete();
    const local = await db.notifications.where('user_id').equals(userId).toArray();
    const readHere = new Set(local.filter((n) => n.is_read).map((n) => n.id));
    const incoming = new Set(rows.map((r) => r.id));
    // When the server returned a full page, older rows may simply be past the window: keep them.
    const oldest = rows.length >= limit ? rows[rows.length - 1]?.created_at : undefined;
    const gone = local
      .filter((n) => !incoming.has(n.id) && (oldest === undefined || n.created_at >= oldest))
      .map((n) => n.id);
    await db.notifications.bulkDelete(gone);
    await db.notifications.bulkPut(
      rows.map((r) => (readHere.has(r.id) && !r.is_read ? { ...r, is_read: true } : r)),
    );
  });
}

/**
 * Fetches the user's notifications (SPEC §7: all fields, mine, newest first) into Dexie.
 * Resolves false when the fetch failed (logged only, SPEC §8); the cached list stays.
 */
export async function refreshNotifications(userId: string): Promise<boolean> {
  const { data, error } = await supabase
    .from('notifications')
    .select('*')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(NOTIFICATIONS_FETCH_LIMIT);
  if (error || !Array.isArray(data)) {
    console.warn('[notifications] fetch failed', error);
    return false;
  }
  await mergeNotifications(userId, data as Notification[]);
  return true;
}

/** Marks one notification read: at once in Dexie, then on the server through the outbox. */
export async function markNotificationRead(id: string): Promise<void> {
  const row = await db.notifications.get(id);
  if (!row || row.is_read) return;
  await db.notifications.update(id, { is_read: true, updated_at: new Date().toISOString() });
  await enqueueMarkNotificationRead(id).catch((error: unknown) =>
    console.warn('[notifications] mark read not queued', error),
  );
}

/** Marks every unread notification of the user read, here and (through the outbox) there. */
export async function markAllNotificationsRead(userId: string): Promise<void> {
  const now = new Date().toISOString();
  const changed = await db.notifications
    .where('user_id')
    .equals(userId)
    .filter((n) => !n.is_read)
    .modify({ is_read: true, updated_at: now });
  if (changed === 0) return;
  await enqueueMarkAllNotificationsRead(userId).catch((error: unknown) =>
    console.warn('[notifications] mark all read not queued', error),
  );
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
