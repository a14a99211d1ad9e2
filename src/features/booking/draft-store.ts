/**
 * The wizard's draft on the device: the values and the step in `meta`, the chosen files as
 * Blobs in `files` (same table the outbox uploads from), so a reload or a closed app loses
 * nothing. One draft at a time.
 */
import type { BookingRequest } from '@/domain/booking-request';
import type { LocalBooking } from '@/domain/local-booking';
import type { Locale } from '@/domain/locale';
import type { PriceBreakdown } from '@/domain/rows';
import { db, type LocalFile } from '@/infra/db';
import { extensionOf, type PreparedFile } from '@/infra/image-prepare';
import { requestPersistentStorage } from '@/infra/storage-persist';
import { queueBooking } from '@/sync/outbox/enqueue';
import { updateQueuedBooking } from '@/sync/outbox/parked';

import { readParkedCreate } from '@/features/booking/booking-store';
import type { SavedDraft } from '@/features/booking/booking-wizard.machine';
import {
  wizardSteps,
  type BookingDraft,
  type DraftFile,
  type WizardStep,
} from '@/features/booking/draft';
import { createRequestOfDraft } from '@/features/booking/draft-request';
import { draftOfRequest, editStepOf } from '@/features/booking/edit-draft';

export const DRAFT_KEY = 'booking.draft';
const FIRST_BOOKING_KEY = 'booking.first_done';

type StoredDraft = SavedDraft & { saved_at: string };

function worthOffering(draft: BookingDraft, step: string): boolean {
  return step !== 'basics' || !!draft.car_id || !!draft.start_date || !!draft.end_date;
}

/**
 * The saved draft, if there is one worth offering; files that vanished are dropped. A draft
 * whose booking is already stored (the page closed between submitDraft's two writes) is not.
 */
export async function loadSavedDraft(): Promise<SavedDraft | null> {
  const row = await db.meta.get(DRAFT_KEY);
  const stored = row?.value as StoredDraft | undefined;
  if (!stored?.draft?.id || !(wizardSteps as readonly string[]).includes(stored.step)) return null;
  if (!worthOffering(stored.draft, stored.step)) return null;
  if (await db.bookings.get(stored.draft.id)) return null;
  const draft = { ...stored.draft };
  if (draft.licence && !(await db.files.get(draft.licence.id))) draft.licence = null;
  if (draft.flight_document && !(await db.files.get(draft.flight_document.id))) {
    draft.flight_document = null;
  }
  return { draft, step: stored.step };
}

export async function saveDraft(draft: BookingDraft, step: SavedDraft['step']): Promise<void> {
  const value: StoredDraft = { draft, step, saved_at: new Date().toISOString() };
  await db.meta.put({ key: DRAFT_KEY, value });
}

async function deleteFilesOf(draftId: string, keep: string[] = []): Promise<void> {
  const files = await db.files.toArray();
  await db.files.bulkDelete(
    files.filter((f) => f.path.startsWith(`${draftId}/`) && !keep.includes(f.id)).map((f) => f.id),
  );
}

/** Forgets a draft and its files (files of a booking already queued are not touched). */
export async function clearDraft(draft: BookingDraft): Promise<void> {
  await db.transaction('rw', db.meta, db.files, db.bookings, async () => {
    const row = await db.meta.get(DRAFT_KEY);
    if ((row?.value as StoredDraft | undefined)?.draft.id === draft.id) {
      await db.meta.delete(DRAFT_KEY);
    }
    if (!(await db.bookings.get(draft.id))) await deleteFilesOf(draft.id);
  });
}

/**
 * True when a queued upload still needs the file: a refused booking corrected in the wizard keeps
 * its file until the correction is confirmed (`resubmitDraft`), in case it is abandoned.
 */
async function isQueuedFile(fileId: string): Promise<boolean> {
  const uploads = await db.outbox.where('kind').equals('upload_file').toArray();
  return uploads.some((e) => (e.payload as { file_id?: string }).file_id === fileId);
}

/** Keeps a chosen file with the draft, replacing the previous one of the same kind. */
export async function saveDraftFile(
  draftId: string,
  kind: 'licence' | 'flight',
  prepared: PreparedFile,
  previous: DraftFile | null,
): Promise<DraftFile> {
  const id = crypto.randomUUID();
  const bucket = kind === 'licence' ? 'licenses' : 'flight-documents';
  const path = `${draftId}/${kind}-${id}.${extensionOf(prepared.type)}`;
  const file: LocalFile = {
    id,
    bucket,
    path,
    name: prepared.name,
    type: prepared.type,
    blob: prepared.blob,
  };
  await db.transaction('rw', db.files, db.outbox, async () => {
    if (previous && !(await isQueuedFile(previous.id))) await db.files.delete(previous.id);
    await db.files.put(file);
  });
  return { id, name: prepared.name, type: prepared.type, size: prepared.size, bucket, path };
}

/** The bytes of a file kept with the draft (its thumbnail), or null once it is gone. */
export async function readDraftFile(file: DraftFile): Promise<Blob | null> {
  return (await db.files.get(file.id))?.blob ?? null;
}

export async function removeDraftFile(file: DraftFile): Promise<void> {
  await db.transaction('rw', db.files, db.outbox, async () => {
    if (!(await isQueuedFile(file.id))) await db.files.delete(file.id);
  });
}

/**
 * Confirms a draft in two transactions: first the booking is stored with its reference and queued
 * (uploads, then `create_booking`: `queueBooking`), then the draft and its unused files are
 * forgotten. A page closed between the two leaves a draft that `loadSavedDraft` no longer offers.
 * After the first booking the browser is asked to keep this site's data.
 */
export async function submitDraft(input: {
  draft: BookingDraft;
  isGuest: boolean;
  price: PriceBreakdown;
  userId: string | null;
  /** The app's language now: the guest's mails are written in it. */
  locale: Locale;
}): Promise<{ bookingId: string }> {
  const { draft, isGuest, price, userId, locale } = input;
  const payload = createRequestOfDraft(draft, isGuest, locale);
  const now = new Date().toISOString();
  const booking: LocalBooking = {
    ...payload,
    user_id: isGuest ? null : userId,
    license_path: payload.license_path,
    extras: payload.extras as LocalBooking['extras'],
    insurance: payload.insurance as LocalBooking['insurance'],
    payment_status: 'unpaid',
    price,
    total_dzd: price.total,
    notes: null,
    status: 'queued',
    status_reason: null,
    created_at: now,
    updated_at: now,
    sync_state: 'queued',
    sync_error: null,
    is_guest: isGuest,
  };
  const fileIds = [draft.licence?.id, draft.from_abroad ? draft.flight_document?.id : undefined];
  const files = (await db.files.bulkGet(fileIds.filter((id): id is string => !!id))).filter(
    (f): f is LocalFile => !!f,
  );
  if (files.length === 0) throw new Error('file_missing');
  await queueBooking({ booking, files, payload });
  await db.transaction('rw', db.meta, db.files, async () => {
    await db.meta.delete(DRAFT_KEY);
    await deleteFilesOf(
      draft.id,
      files.map((f) => f.id),
    );
  });
  if (!(await db.meta.get(FIRST_BOOKING_KEY))) {
    await db.meta.put({ key: FIRST_BOOKING_KEY, value: now });
    void requestPersistentStorage();
  }
  return { bookingId: draft.id };
}

// --- "Edit my details": a refused booking corrected in the wizard (edit-draft.ts) -------------

export type EditableBooking = { draft: BookingDraft; step: WizardStep; isGuest: boolean };

/**
 * The refused booking of this device as a wizard draft, or null when it is no longer parked
 * (sent meanwhile, discarded, or not of this device): only a parked creation may be rewritten.
 */
export async function loadEditableBooking(bookingId: string): Promise<EditableBooking | null> {
  const [booking, entry] = await Promise.all([
    db.bookings.get(bookingId),
    readParkedCreate(bookingId),
  ]);
  if (!booking || !entry || booking.sync_state !== 'needs_attention') return null;
  const request = entry.payload as BookingRequest;
  const paths = [request.license_path, request.flight_document_path];
  const files = (await db.files.toArray()).filter((f) => paths.includes(f.path));
  return {
    draft: draftOfRequest(request, files),
    step: editStepOf(booking.sync_error),
    isGuest: booking.is_guest,
  };
}

/**
 * Sends the corrected draft in place of the refused one. Same files: the parked entry is rewritten
 * (`updateQueuedBooking`). A document chosen again: the booking is queued anew under the same id
 * with its new file (`queueBooking` replaces its entries; the creation stays idempotent on the id).
 */
export async function resubmitDraft(input: {
  draft: BookingDraft;
  isGuest: boolean;
  price: PriceBreakdown;
  locale: Locale;
}): Promise<{ bookingId: string }> {
  const { draft, isGuest, price, locale } = input;
  const booking = await db.bookings.get(draft.id);
  const entry = await readParkedCreate(draft.id);
  if (!booking || !entry) throw new Error('not_parked');
  const before = entry.payload as BookingRequest;
  const request = createRequestOfDraft(draft, isGuest, locale);
  const { id: _id, ...patch } = request;
  const sameFiles =
    request.license_path === before.license_path &&
    request.flight_document_path === (before.flight_document_path ?? null);
  if (sameFiles) {
    await updateQueuedBooking(draft.id, patch, price);
    return { bookingId: draft.id };
  }
  const ids = [draft.licence?.id, draft.from_abroad ? draft.flight_document?.id : undefined];
  const files = (await db.files.bulkGet(ids.filter((id): id is string => !!id))).filter(
    (f): f is LocalFile => !!f,
  );
  if (files.length === 0) throw new Error('file_missing');
  const updated: LocalBooking = {
    ...booking,
    ...patch,
    extras: patch.extras as LocalBooking['extras'],
    insurance: patch.insurance as LocalBooking['insurance'],
    price,
    total_dzd: price.total,
    updated_at: new Date().toISOString(),
  };
  await queueBooking({ booking: updated, files, payload: request });
  // The refused document (kept while the correction could still be abandoned) goes now.
  await deleteFilesOf(
    draft.id,
    files.map((f) => f.id),
  );
  return { bookingId: draft.id };
}
