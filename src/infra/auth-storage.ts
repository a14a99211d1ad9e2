import type { SupportedStorage } from '@supabase/supabase-js';

import { db as defaultDb, type KiraaDb } from '@/infra/db';

/** Rows of the `meta` table that hold supabase-js auth items are keyed `auth:<item key>`. */
export const AUTH_META_PREFIX = 'auth:';

/**
 * supabase-js's session storage over IndexedDB (Dexie's `meta` table) instead of localStorage,
 * so the service worker — which has no localStorage — reads the same session to flush the outbox.
 *
 * supabase-js writes JSON strings; we store them as they come. IndexedDB is the truth (another
 * tab may have changed it); a memory copy answers only when IndexedDB fails (blocked, private
 * mode, quota), so the app still signs in for the life of the page instead of failing every call.
 */
export function createAuthStorage(database: KiraaDb = defaultDb): SupportedStorage {
  const memory = new Map<string, string>();
  const rowKey = (key: string) => `${AUTH_META_PREFIX}${key}`;

  return {
    async getItem(key) {
      try {
        const row = await database.meta.get(rowKey(key));
        return typeof row?.value === 'string' ? row.value : null;
      } catch (error) {
        console.warn('auth storage: IndexedDB read failed, using memory', error);
        return memory.get(key) ?? null;
      }
    },
    async setItem(key, value) {
      memory.set(key, value);
      try {
        await database.meta.put({ key: rowKey(key), value });
      } catch (error) {
        console.warn('auth storage: IndexedDB write failed, kept in memory', error);
      }
    },
    async removeItem(key) {
      memory.delete(key);
      try {
        await database.meta.delete(rowKey(key));
      } catch (error) {
        console.warn('auth storage: IndexedDB delete failed', error);
      }
    },
  };
}

export const authStorage = createAuthStorage();
