import type { UploadType } from '@/infra/image-prepare';

/** A file chosen in the form; its bytes wait in Dexie (`files`, same id) until uploaded. */
export type DraftFile = {
  id: string;
  name: string;
  type: UploadType;
  size: number;
  bucket: 'licenses' | 'flight-documents';
  /** `{booking_id}/{file}` in its bucket. */
  path: string;
};

export const wizardSteps = ['basics', 'price', 'location', 'services', 'review'] as const;
export type WizardStep = (typeof wizardSteps)[number];

/** Everything the five steps collect; the booking's id and reference exist from the start. */
export type BookingDraft = {
  id: string;
  reference: string;
  car_id: string;
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  pickup_location_id: string;
  dropoff_same: boolean;
  dropoff_location_id: string;
  driver_option: 'self' | 'provided' | '';
  licence: DraftFile | null;
  from_abroad: boolean;
  flight_document: DraftFile | null;
  extras: string[];
  insurance: string[];
  additional_requests: string;
  guest_name: string;
  guest_phone: string;
  guest_email: string;
  payment_method: 'cash';
  accept_guarantee: boolean;
};

export type DraftPrefill = Partial<
  Pick<BookingDraft, 'car_id' | 'start_date' | 'start_time' | 'end_date' | 'end_time'>
> & { pickup_location_id?: string };

export function emptyDraft(
  id: string,
  reference: string,
  prefill: DraftPrefill = {},
): BookingDraft {
  return {
    id,
    reference,
    car_id: prefill.car_id ?? '',
    start_date: prefill.start_date ?? '',
    start_time: prefill.start_time ?? '10:00',
    end_date: prefill.end_date ?? '',
    end_time: prefill.end_time ?? '10:00',
    pickup_location_id: prefill.pickup_location_id ?? '',
    dropoff_same: true,
    dropoff_location_id: '',
    driver_option: '',
    licence: null,
    from_abroad: false,
    flight_document: null,
    extras: [],
    insurance: ['civil_liability'],
    additional_requests: '',
    guest_name: '',
    guest_phone: '',
    guest_email: '',
    payment_method: 'cash',
    accept_guarantee: false,
  };
}
