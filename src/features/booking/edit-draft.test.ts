import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';

import type { LocalBooking } from '@/domain/local-booking';
import { db } from '@/infra/db';
import { queueBooking } from '@/sync/outbox/enqueue';
import { makeBooking, price } from '@/sync/outbox/testing/fake-server';

import {
  bookingWizardMachine,
  currentStep,
  type SavedDraft,
} from '@/features/booking/booking-wizard.machine';
import { emptyDraft } from '@/features/booking/draft';
import { createRequestOfDraft } from '@/features/booking/draft-request';
import { loadEditableBooking, resubmitDraft, saveDraftFile } from '@/features/booking/draft-store';
import { draftOfRequest, editStepOf, isEditableRefusal } from '@/features/booking/edit-draft';
import { validationMessages } from '@/features/booking/validation-messages';

const ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
const AIRPORT = '33333333-3333-4333-8333-333333333333';

afterEach(async () => {
  await Promise.all([db.outbox.clear(), db.files.clear(), db.bookings.clear(), db.meta.clear()]);
});

/** A guest booking queued on the device, then refused by the server with `code`. */
async function refused(
  code: string,
  overrides: Partial<ReturnType<typeof makeBooking>['payload']> = {},
) {
  const made = makeBooking(ID, 'KR-7K3M-9QXD');
  const payload = { ...made.payload, ...overrides };
  await queueBooking({
    booking: { ...made.booking, ...overrides } as LocalBooking,
    files: made.files,
    payload,
  });
  const entry = (await db.outbox.where('kind').equals('create_booking').toArray())[0]!;
  await db.outbox.update(entry.id, { state: 'parked', last_error: code });
  await db.bookings.update(ID, { sync_state: 'needs_attention', sync_error: code });
  return { payload, entryId: entry.id, file: made.files[0]! };
}

describe('"Edit my details": the draft rebuilt from a refused booking', () => {
  it('opens the contact step for a refused name, phone, e-mail or requests; the documents step for a file', () => {
    for (const code of [
      'invalid_name',
      'invalid_phone',
      'invalid_email',
      'additional_requests_too_long',
    ]) {
      expect(isEditableRefusal(code)).toBe(true);
      expect(editStepOf(code)).toBe('services');
    }
    expect(editStepOf('file_rejected')).toBe('location');
    expect(isEditableRefusal('car_unavailable')).toBe(false);
    expect(isEditableRefusal(null)).toBe(false);
  });

  it('reads the same drop-off as "same place", Algiers times, and a file no longer on the device as none', () => {
    const { payload } = makeBooking(ID);
    const draft = draftOfRequest(
      { ...payload, start_at: '2030-03-12T08:30:00Z', additional_requests: null },
      [],
    );
    expect(draft).toMatchObject({
      start_date: '2030-03-12',
      start_time: '09:30',
      dropoff_same: true,
      dropoff_location_id: '',
      additional_requests: '',
      licence: null,
      flight_document: null,
    });
  });

  it('keeps everything: the request of the rebuilt draft is the parked one (places, options, file, contact)', async () => {
    const { payload, file } = await refused('invalid_name', {
      dropoff_location_id: AIRPORT,
      driver_option: 'provided',
      extras: ['gps'],
      insurance: ['civil_liability', 'tires'],
      additional_requests: 'Siège bébé',
      guest_name: 'Amina\u202bB\u202c',
    });
    const edit = await loadEditableBooking(ID);
    expect(edit).not.toBeNull();
    expect(edit!.step).toBe('services');
    expect(edit!.isGuest).toBe(true);
    const { draft } = edit!;
    expect(draft).toMatchObject({
      id: ID,
      reference: 'KR-7K3M-9QXD',
      start_date: '2030-03-12',
      start_time: '10:00',
      dropoff_same: false,
      dropoff_location_id: AIRPORT,
      guest_name: 'Amina\u202bB\u202c',
      accept_guarantee: true,
    });
    // (Its size is the Blob's: fake-indexeddb does not keep it, the browser does.)
    expect(draft.licence).toMatchObject({
      id: file.id,
      name: file.name,
      type: 'application/pdf',
      bucket: 'licenses',
      path: payload.license_path,
    });
    // Confirmed as it is, the draft asks for the same booking (the name cleaned the wizard's way).
    expect(createRequestOfDraft(draft, true, 'fr')).toEqual({ ...payload, guest_name: 'AminaB' });
  });

  it('is not offered for a booking that is not parked any more', async () => {
    await refused('invalid_name');
    await db.outbox.toCollection().modify({ state: 'pending' });
    expect(await loadEditableBooking(ID)).toBeNull();
    expect(await loadEditableBooking('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1')).toBeNull();
  });

  it('confirming rewrites the same outbox entry (same id, reference, file): one booking', async () => {
    const { entryId } = await refused('invalid_phone');
    const { draft } = (await loadEditableBooking(ID))!;
    await resubmitDraft({
      draft: { ...draft, guest_phone: '0555 12 34 99' },
      isGuest: true,
      price: { ...price, total: 12000 },
      locale: 'ar',
    });
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => e.kind).sort()).toEqual(['create_booking', 'upload_file']);
    const create = entries.find((e) => e.kind === 'create_booking')!;
    expect(create.id).toBe(entryId);
    expect(create).toMatchObject({ state: 'pending', attempts: 0, last_error: null });
    expect(create.payload).toMatchObject({
      id: ID,
      reference: 'KR-7K3M-9QXD',
      guest_phone: '+213555123499',
      locale: 'ar',
    });
    expect(await db.bookings.get(ID)).toMatchObject({
      guest_phone: '+213555123499',
      sync_state: 'queued',
      sync_error: null,
      total_dzd: 12000,
    });
  });

  it('a document chosen again is queued with its upload, under the same booking id; the refused one is kept until then', async () => {
    const { file } = await refused('file_rejected');
    const { draft, step } = (await loadEditableBooking(ID))!;
    expect(step).toBe('location');
    // Chosen in the wizard's documents step: the queued file stays while this may be abandoned.
    const picked = await saveDraftFile(
      ID,
      'licence',
      {
        name: 'permis2.pdf',
        type: 'application/pdf',
        size: 14,
        transformed: false,
        blob: new Blob(['%PDF-1.4 again'], { type: 'application/pdf' }),
      },
      draft.licence,
    );
    expect(await db.files.get(file.id)).toBeDefined();
    const fresh = (await db.files.get(picked.id))!;
    await resubmitDraft({
      draft: { ...draft, licence: picked },
      isGuest: true,
      price,
      locale: 'fr',
    });
    const entries = await db.outbox.toArray();
    expect(entries.filter((e) => e.kind === 'create_booking')).toHaveLength(1);
    expect(entries.find((e) => e.kind === 'upload_file')!.payload).toMatchObject({
      file_id: picked.id,
      path: fresh.path,
    });
    expect(entries.find((e) => e.kind === 'create_booking')!.payload).toMatchObject({
      id: ID,
      license_path: fresh.path,
    });
    expect((await db.files.toArray()).map((f) => f.id)).toEqual([picked.id]);
  });
});

describe('the wizard machine started to correct a booking', () => {
  it('opens at the refused step with the draft filled, never offering the saved draft', async () => {
    i18n.loadAndActivate({ locale: 'fr', messages: {} });
    const draft = { ...emptyDraft(ID, 'KR-7K3M-9QXD'), guest_name: 'Amina' };
    const machine = bookingWizardMachine.provide({
      actors: {
        loadDraft: fromPromise<SavedDraft | null>(async () => ({
          draft: emptyDraft('other', 'KR-0000-0000'),
          step: 'review' as const,
        })),
      },
    });
    const actor = createActor(machine, {
      input: {
        draft: emptyDraft('fresh', 'KR-1111-1111'),
        edit: { draft, step: 'services' },
        isGuest: true,
        online: false,
        messages: validationMessages(i18n),
      },
    }).start();
    const snapshot = actor.getSnapshot();
    expect(currentStep(snapshot.value)).toBe('services');
    expect(snapshot.context.draft).toEqual(draft);
    // The device's saved draft (found a moment later) changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(currentStep(actor.getSnapshot().value)).toBe('services');
    expect(actor.getSnapshot().context.saved).toBeNull();
    actor.stop();
  });
});
