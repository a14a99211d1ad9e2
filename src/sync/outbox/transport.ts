/** What the outbox needs from the server: supabase-js in the app, a fake server in tests. */
import type { SupabaseClient } from '@supabase/supabase-js';

import type { MarkNotificationReadPayload } from '@/sync/outbox/entry';
import type { ApiError } from '@/sync/outbox/errors';

export type CallResult<T = unknown> = { data: T | null; error: ApiError | null };

export interface OutboxTransport {
  rpc<T = unknown>(fn: string, args: Record<string, unknown>): Promise<CallResult<T>>;
  upload(bucket: string, path: string, blob: Blob, contentType: string): Promise<CallResult>;
  markNotificationsRead(payload: MarkNotificationReadPayload): Promise<CallResult>;
  /** The server status of one of my bookings (null when not visible to me). */
  bookingStatus(bookingId: string): Promise<CallResult<string>>;
  /** Refreshes the session; true when there is a fresh token to retry with. */
  refreshSession(): Promise<boolean>;
  /** The user this transport sends as (null: the anon key, no session). */
  userId(): Promise<string | null>;
}

export function supabaseTransport(client: SupabaseClient): OutboxTransport {
  return {
    async rpc(fn, args) {
      const { data, error, status } = await client.rpc(fn, args);
      return { data, error: error ? { ...error, status } : null };
    },
    async upload(bucket, path, blob, contentType) {
      try {
        const { data, error } = await client.storage
          .from(bucket)
          .upload(path, blob, { contentType, upsert: false });
        if (!error) return { data, error: null };
        const e = error as ApiError & { status?: number; statusCode?: string };
        const status = typeof e.status === 'number' ? e.status : e.statusCode ? 400 : 0;
        return { data: null, error: { status, statusCode: e.statusCode, message: e.message } };
      } catch (error) {
        return { data: null, error: { status: 0, message: String(error) } };
      }
    },
    async markNotificationsRead(payload) {
      const patch = { is_read: true, updated_at: new Date().toISOString() };
      const query =
        payload.notification_id !== undefined
          ? client.from('notifications').update(patch).eq('id', payload.notification_id)
          : client
              .from('notifications')
              .update(patch)
              .eq('user_id', payload.all_of_user)
              .eq('is_read', false);
      const { error, status } = await query;
      return { data: null, error: error ? { ...error, status } : null };
    },
    async bookingStatus(bookingId) {
      const { data, error, status } = await client
        .from('bookings')
        .select('status')
        .eq('id', bookingId)
        .maybeSingle();
      return { data: data?.status ?? null, error: error ? { ...error, status } : null };
    },
    async refreshSession() {
      const { data: current } = await client.auth.getSession();
      if (!current.session) return false;
      const { data, error } = await client.auth.refreshSession();
      return !error && !!data.session;
    },
    async userId() {
      const { data } = await client.auth.getSession();
      return data.session?.user.id ?? null;
    },
  };
}
