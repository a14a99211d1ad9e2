import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Notification } from '@/domain/rows';
import { db } from '@/infra/db';

import {
  markAllNotificationsRead,
  markNotificationRead,
  mergeNotifications,
} from '@/features/notifications/notifications-api';

const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

function row(id: string, createdAt: string, patch: Partial<Notification> = {}): Notification {
  return {
    id,
    user_id: ME,
    booking_id: null,
    type: 'booking_accepted',
    is_read: false,
    created_at: createdAt,
    updated_at: createdAt,
    ...patch,
  };
}

beforeEach(async () => {
  await Promise.all([db.notifications.clear(), db.outbox.clear()]);
});
afterEach(async () => {
  await Promise.all([db.notifications.clear(), db.outbox.clear()]);
});

describe('mergeNotifications', () => {
  it('stores the server list', async () => {
    await mergeNotifications(ME, [
      row('a', '2026-03-01T10:00:00Z'),
      row('b', '2026-03-01T09:00:00Z'),
    ]);
    expect((await db.notifications.toArray()).map((n) => n.id).sort()).toEqual(['a', 'b']);
  });

  it('keeps a notification read here even if the server has not heard it yet', async () => {
    await mergeNotifications(ME, [row('a', '2026-03-01T10:00:00Z')]);
    await db.notifications.update('a', { is_read: true });
    await mergeNotifications(ME, [row('a', '2026-03-01T10:00:00Z', { is_read: false })]);
    expect((await db.notifications.get('a'))?.is_read).toBe(true);
  });

  it('takes the server read flag', async () => {
    await mergeNotifications(ME, [row('a', '2026-03-01T10:00:00Z')]);
    await mergeNotifications(ME, [row('a', '2026-03-01T10:00:00Z', { is_read: true })]);
    expect((await db.notifications.get('a'))?.is_read).toBe(true);
  });

  it('drops rows the server no longer lists, and rows of another user', async () => {
    await db.notifications.bulkPut([
      row('a', '2026-03-01T10:00:00Z'),
      row('gone', '2026-03-01T08:00:00Z'),
      row('theirs', '2026-03-01T10:00:00Z', { user_id: OTHER }),
    ]);
    await mergeNotifications(ME, [row('a', '2026-03-01T10:00:00Z')]);
    expect((await db.notifications.toArray()).map((n) => n.id)).toEqual(['a']);
  });

  it('keeps older rows beyond a full page', async () => {
    await db.notifications.put(row('old', '2026-01-01T00:00:00Z'));
    await mergeNotifications(
      ME,
      [row('n2', '2026-03-02T00:00:00Z'), row('n1', '2026-03-01T00:00:00Z')],
      2,
    );
    expect((await db.notifications.toArray()).map((n) => n.id).sort()).toEqual(['n1', 'n2', 'old']);
  });
});

describe('marking read', () => {
  it('marks one read at once and queues the server write', async () => {
    await mergeNotifications(ME, [
      row('a', '2026-03-01T10:00:00Z'),
      row('b', '2026-03-01T09:00:00Z'),
    ]);
    await markNotificationRead('a');
    expect((await db.notifications.get('a'))?.is_read).toBe(true);
    expect((await db.notifications.get('b'))?.is_read).toBe(false);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'mark_notification_read',
      payload: { notification_id: 'a' },
      state: 'pending',
    });
    // Already read: nothing more to send.
    await markNotificationRead('a');
    expect(await db.outbox.count()).toBe(1);
  });

  it('leaves a notification unread when its mark cannot be queued (never read here only)', async () => {
    await mergeNotifications(ME, [
      row('a', '2026-03-01T10:00:00Z'),
      row('b', '2026-03-01T09:00:00Z'),
    ]);
    const refuse = () => {
      throw new Error('outbox unavailable');
    };
    db.outbox.hook('creating', refuse);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await markNotificationRead('a');
      await markAllNotificationsRead(ME);
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      db.outbox.hook('creating').unsubscribe(refuse);
      warn.mockRestore();
    }
    expect((await db.notifications.toArray()).map((n) => n.is_read)).toEqual([false, false]);
    expect(await db.outbox.count()).toBe(0);
    // Queued now: read here, and sent later.
    await markNotificationRead('a');
    expect((await db.notifications.get('a'))?.is_read).toBe(true);
    expect(await db.outbox.count()).toBe(1);
  });

  it('marks all of mine read with one queued write', async () => {
    await db.notifications.bulkPut([
      row('a', '2026-03-01T10:00:00Z'),
      row('b', '2026-03-01T09:00:00Z'),
      row('theirs', '2026-03-01T10:00:00Z', { user_id: OTHER }),
    ]);
    await markAllNotificationsRead(ME);
    const mine = await db.notifications.where('user_id').equals(ME).toArray();
    expect(mine.every((n) => n.is_read)).toBe(true);
    expect((await db.notifications.get('theirs'))?.is_read).toBe(false);
    const queued = await db.outbox.toArray();
    expect(queued.map((e) => e.payload)).toEqual([{ all_of_user: ME }]);
    // Nothing unread any more: no second write.
    await markAllNotificationsRead(ME);
    expect(await db.outbox.count()).toBe(1);
  });
});
