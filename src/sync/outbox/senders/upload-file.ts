/**
 * `upload_file`: a licence or flight document, or a pickup/return photo, to its bucket
 * (`upsert: false`). "Already exists"
 * is success (an earlier attempt landed); a visitor refused because the booking exists replays
 * the booking's creation, which settles it.
 */
import type { BookingRequest } from '@/domain/booking-request';
import { db } from '@/infra/db';
import type { UploadFilePayload } from '@/sync/outbox/entry';
import { classifyError, isAlreadyExists, permanent, type Outcome } from '@/sync/outbox/errors';
import { sendCreate } from '@/sync/outbox/senders/create-booking';
import type { OutboxTransport } from '@/sync/outbox/transport';

export async function sendUpload(t: OutboxTransport, p: UploadFilePayload): Promise<Outcome> {
  // A pickup or return photo (staff): its record is sent after it; nothing else to settle here.
  const handover = p.bucket === 'handovers';
  const booking = handover ? undefined : await db.bookings.get(p.booking_id);
  // The booking reached the server, so its files did too (create_booking checks they exist).
  if (booking && (booking.sync_state === 'awaiting' || booking.sync_state === 'confirmed')) {
    return { ok: true };
  }
  const file = await db.files.get(p.file_id);
  if (!file && handover) return permanent('file_missing');
  if (!file) return (await landedAlready(t, p)) ?? permanent('file_missing');
  const { error } = await t.upload(p.bucket, p.path, file.blob, file.type);
  if (!error || isAlreadyExists(error)) return { ok: true };
  const failure = classifyError(error);
  if (failure.kind === 'permanent' && failure.code === 'not_allowed') {
    // A visitor may not write into the folder of a booking that exists: the booking may have
    // landed on an earlier run whose answer was lost. Its creation tells (idempotent on the id).
    return (await landedAlready(t, p)) ?? { ok: false, failure };
  }
  return { ok: false, failure };
}

/**
 * Replays the creation an upload is for: `create_booking` returns the stored booking when it
 * exists (and checks the files are there), so success means the upload had landed too.
 */
async function landedAlready(t: OutboxTransport, p: UploadFilePayload): Promise<Outcome | null> {
  const create = (await db.outbox.where('kind').equals('create_booking').toArray()).find(
    (e) => (e.payload as BookingRequest).id === p.booking_id,
  );
  if (!create) return null;
  const outcome = await sendCreate(t, create.payload as BookingRequest, false);
  return outcome.ok ? outcome : null;
}
