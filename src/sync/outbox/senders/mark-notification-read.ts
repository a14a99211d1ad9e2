/** `mark_notification_read`: an update to the same value, safe to replay. */
import type { MarkNotificationReadPayload } from '@/sync/outbox/entry';
import { classifyError, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendMarkRead(
  t: OutboxTransport,
  p: MarkNotificationReadPayload,
): Promise<Outcome> {
  const { error } = await t.markNotificationsRead(p);
  return error ? { ok: false, failure: classifyError(error) } : { ok: true };
}
