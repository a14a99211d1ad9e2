/**
 * "Edit my details" (issue 20): a booking the server refused for what was typed reopens in the
 * wizard, at the step of the refused field, with everything it had — car, dates, places, options,
 * contact and files — rebuilt from its parked `create_booking` payload. Reading it from the device
 * and sending it again are draft-store.ts's (`loadEditableBooking`, `resubmitDraft`).
 * docs/offline-sync.md, "Refused for what was typed".
 */
import type { BookingRequest } from '@/domain/booking-request';
import { isoToAlgiers } from '@/domain/dates';
import type { LocalFile } from '@/infra/db';
import type { UploadType } from '@/infra/image-prepare';

import type { BookingDraft, DraftFile, WizardStep } from '@/features/booking/draft';

/** Refusals of the contact or the requests (step 4) and of the documents (step 3). */
const detailsCodes = new Set([
  'invalid_name',
  'invalid_phone',
  'invalid_email',
  'guest_contact_required',
  'additional_requests_too_long',
]);
const documentCodes = new Set(['licence_required', 'file_rejected', 'file_missing']);

/** Refusals "Edit my details" fixes in the wizard. */
export function isEditableRefusal(code: string | null | undefined): boolean {
  return !!code && (detailsCodes.has(code) || documentCodes.has(code));
}

/** The step the wizard opens at for a refusal: the one holding the refused field. */
export function editStepOf(code: string | null | undefined): WizardStep {
  if (code && documentCodes.has(code)) return 'location';
  return 'services';
}

function draftFileOf(files: LocalFile[], path: string | null): DraftFile | null {
  const file = path ? files.find((f) => f.path === path) : undefined;
  if (!file || file.bucket === 'handovers') return null;
  return {
    id: file.id,
    name: file.name,
    type: file.type as UploadType,
    size: file.blob.size,
    bucket: file.bucket,
    path: file.path,
  };
}

/** The wizard's draft of a booking request, its files found among `files` by their path. */
export function draftOfRequest(request: BookingRequest, files: LocalFile[]): BookingDraft {
  const start = isoToAlgiers(request.start_at);
  const end = isoToAlgiers(request.end_at);
  const dropoffSame = request.dropoff_location_id === request.pickup_location_id;
  return {
    id: request.id,
    reference: request.reference,
    car_id: request.car_id,
    start_date: start.date,
    start_time: start.time,
    end_date: end.date,
    end_time: end.time,
    pickup_location_id: request.pickup_location_id,
    dropoff_same: dropoffSame,
    dropoff_location_id: dropoffSame ? '' : request.dropoff_location_id,
    driver_option: request.driver_option,
    licence: draftFileOf(files, request.license_path),
    from_abroad: request.from_abroad,
    flight_document: draftFileOf(files, request.flight_document_path ?? null),
    extras: [...request.extras],
    insurance: [...request.insurance],
    additional_requests: request.additional_requests ?? '',
    guest_name: request.guest_name ?? '',
    guest_phone: request.guest_phone ?? '',
    guest_email: request.guest_email ?? '',
    payment_method: 'cash',
    // Accepted when the booking was confirmed; the review step still shows it.
    accept_guarantee: true,
  };
}
