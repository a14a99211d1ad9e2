/**
 * Pickup and return records in the outbox (docs/handovers.md): staff record them on a phone that
 * may be offline. One transaction stores each photo as a Blob (`files`, bucket `handovers`), one
 * `upload_file` per photo under a stable path (`{booking_id}/{record_id}-{angle}.{ext}`), then the
 * `record_handover` entry depending on the uploads. The flush sends the photos first, then the
 * record with its idempotency key (its id), exactly once; nothing is lost across a reload.
 */
import {
  HANDOVER_BUCKET,
  handoverPhotoPath,
  handoverRequestSchema,
  type HandoverAngle,
  type HandoverKind,
  type HandoverRequest,
} from '@/domain/handover';
import { db, type LocalFile, type OutboxEntry } from '@/infra/db';
import { notifyEnqueued } from '@/sync/outbox/enqueue';
import { newEntry, nextSeq } from '@/sync/outbox/entry';

export type HandoverPhotoInput = { angle: HandoverAngle; blob: Blob; type: string };

/** The record's payload without its photos' paths (they are made here, from the photos). */
export type HandoverDraft = HandoverRequest extends infer R
  ? R extends HandoverRequest
    ? Omit<R, 'photos'>
    : never
  : never;

/**
 * Queues a record and its photos, as the staff member `owner` (sent only while they are signed
 * in here). Throws `handover_queued` when a record of the same kind already waits for this booking.
 */
export async function queueHandover(
  draft: HandoverDraft,
  photos: HandoverPhotoInput[],
  owner: string,
): Promise<HandoverRequest> {
  const files: LocalFile[] = photos.map((photo) => ({
    id: crypto.randomUUID(),
    bucket: HANDOVER_BUCKET,
    path: handoverPhotoPath(draft.booking_id, draft.id, photo.angle, photo.type),
    name: `${photo.angle}`,
    type: photo.type,
    blob: photo.blob,
  }));
  const payload = handoverRequestSchema.parse({
    ...draft,
    photos: files.map((f, i) => ({ angle: photos[i]!.angle, path: f.path })),
  });
  await db.transaction('rw', db.files, db.outbox, async () => {
    const waiting = await queuedHandoverEntries(draft.booking_id);
    if (waiting.some((e) => e.payload.kind === draft.kind)) throw new Error('handover_queued');
    let seq = await nextSeq();
    const uploads: string[] = [];
    for (const file of files) {
      await db.files.put(file);
      const entry = newEntry(
        'upload_file',
        {
          file_id: file.id,
          booking_id: draft.booking_id,
          bucket: HANDOVER_BUCKET,
          path: file.path,
        },
        owner,
        seq,
      );
      seq += 1;
      uploads.push(entry.id);
      await db.outbox.add(entry);
    }
    await db.outbox.add(newEntry('record_handover', payload, owner, seq, uploads));
  });
  notifyEnqueued();
  return payload;
}

type HandoverEntry = OutboxEntry & { kind: 'record_handover'; payload: HandoverRequest };

async function queuedHandoverEntries(bookingId?: string): Promise<HandoverEntry[]> {
  const entries = (await db.outbox
    .where('kind')
    .equals('record_handover')
    .toArray()) as HandoverEntry[];
  return entries.filter((e) => bookingId === undefined || e.payload.booking_id === bookingId);
}

/** A record waiting in the outbox, as the staff screens show it. */
export type QueuedHandover = {
  entryId: string;
  kind: HandoverKind;
  payload: HandoverRequest;
  /** pending / sending / parked (refused: `error` says why). */
  state: OutboxEntry['state'];
  error: string | null;
  attempts: number;
  /** Photos still waiting to be uploaded (of `payload.photos.length`). */
  photosLeft: number;
  created_at: number;
};

/** The records of a booking (or of every booking) still in the outbox, oldest first. */
export async function readQueuedHandovers(bookingId?: string): Promise<QueuedHandover[]> {
  const entries = await queuedHandoverEntries(bookingId);
  const outbox = await db.outbox.toArray();
  const present = new Map(outbox.map((e) => [e.id, e]));
  return entries
    .sort((a, b) => a.seq - b.seq)
    .map((e) => {
      const deps = e.depends_on.map((d) => present.get(d)).filter((d) => d !== undefined);
      const parkedDep = deps.find((d) => d.state === 'parked');
      return {
        entryId: e.id,
        kind: e.payload.kind,
        payload: e.payload,
        state: e.state,
        error: e.last_error ?? parkedDep?.last_error ?? null,
        attempts: Math.max(e.attempts, ...deps.map((d) => d.attempts)),
        photosLeft: deps.length,
        created_at: e.created_at,
      };
    });
}

/** The Blob of a queued photo (to show it while it waits), or null once sent. */
export async function queuedPhotoBlob(path: string): Promise<Blob | null> {
  const file = await db.files
    .filter((f) => f.bucket === HANDOVER_BUCKET && f.path === path)
    .first();
  return file?.blob ?? null;
}

/** Drops a record the server refused (or that staff gave up on): its entries and its photos. */
export async function discardQueuedHandover(entryId: string): Promise<void> {
  await db.transaction('rw', db.files, db.outbox, async () => {
    const entry = (await db.outbox.get(entryId)) as HandoverEntry | undefined;
    if (!entry || entry.kind !== 'record_handover') return;
    const paths = new Set(entry.payload.photos.map((p) => p.path));
    await db.outbox.bulkDelete([entryId, ...entry.depends_on]);
    const files = await db.files
      .filter((f) => f.bucket === HANDOVER_BUCKET && paths.has(f.path))
      .toArray();
    await db.files.bulkDelete(files.map((f) => f.id));
  });
}
