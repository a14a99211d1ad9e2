/**
 * `record_handover`: a pickup or return record, after its photos' uploads (its dependencies).
 * `staff_record_handover` is idempotent on the record's id: a replay answers the stored record, so
 * a lost answer costs nothing. Once it landed, the photos' Blobs are no longer needed here.
 */
import type { HandoverRequest } from '@/domain/handover';
import { db } from '@/infra/db';
import { classifyError, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendHandover(t: OutboxTransport, p: HandoverRequest): Promise<Outcome> {
  const { error } = await t.rpc('staff_record_handover', { p });
  if (error) return { ok: false, failure: classifyError(error) };
  const paths = new Set(p.photos.map((photo) => photo.path));
  const files = await db.files
    .filter((f) => f.bucket === 'handovers' && paths.has(f.path))
    .toArray();
  await db.files.bulkDelete(files.map((f) => f.id));
  return { ok: true };
}
