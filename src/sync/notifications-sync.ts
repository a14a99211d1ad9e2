/**
 * The signed-in user's notifications between the server and Dexie, the one place the bell and
 * the activity page read: fetched by the bell's poll (src/features/notifications), by the news
 * checks of the page and of the service worker (src/sync/news.ts, src/sw.ts).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

import type { Notification } from '@/domain/rows';
import { db } from '@/infra/db';

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
 * Fetches the user's notifications (docs/product.md §7: all fields, mine, newest first) into Dexie.
 * Resolves false when the fetch failed (logged only, docs/product.md §8); the cached list stays.
 */
export async function fetchNotifications(client: SupabaseClient, userId: string): Promise<boolean> {
  const { data, error } = await client
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
