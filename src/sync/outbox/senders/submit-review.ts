/** `submit_review`: `already_reviewed` is success (a replay). */
import type { SubmitReviewPayload } from '@/sync/outbox/entry';
import { classifyError, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendReview(t: OutboxTransport, p: SubmitReviewPayload): Promise<Outcome> {
  const { error } = await t.rpc('submit_review', { ...p });
  if (!error) return { ok: true };
  const failure = classifyError(error);
  if (failure.kind === 'permanent' && failure.code === 'already_reviewed') return { ok: true };
  return { ok: false, failure };
}
