/**
 * The wizard's draft read as a booking request (src/domain/booking-request.ts), in one place: the
 * device's price, the server's quote and the booking finally sent are all derived from
 * `requestOfDraft`, so they never disagree about the drop-off place, the driver or the options.
 */
import { cleanTypedParagraphs, cleanTypedText } from '@/domain/typed-text';
import type { BookingRequest, QuoteRequest } from '@/domain/booking-request';
import { algiersToIso } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { normalizeInsurance, priceRequest, type PricingRows } from '@/domain/pricing';
import type { PriceBreakdown } from '@/domain/rows';

import type { BookingDraft } from '@/features/booking/draft';
import { normalizePhone } from '@/domain/phone';

/** The rental as instants, when the dates and times are valid and the return follows pickup. */
export function draftPeriod(
  draft: Pick<BookingDraft, 'start_date' | 'start_time' | 'end_date' | 'end_time'>,
): { start: string; end: string } | null {
  const start = algiersToIso(draft.start_date, draft.start_time);
  const end = algiersToIso(draft.end_date, draft.end_time);
  if (!start || !end || Date.parse(end) <= Date.parse(start)) return null;
  return { start, end };
}

/** What the draft asks for so far: each choice resolved once, null where none is made yet. */
export type DraftRequest = Omit<QuoteRequest, 'car_id' | 'start_at' | 'end_at'> & {
  car_id: string | null;
  start_at: string | null;
  end_at: string | null;
};

export function requestOfDraft(draft: BookingDraft): DraftRequest {
  const period = draftPeriod(draft);
  const dropoff = draft.dropoff_same ? draft.pickup_location_id : draft.dropoff_location_id;
  return {
    car_id: draft.car_id || null,
    start_at: period?.start ?? null,
    end_at: period?.end ?? null,
    pickup_location_id: draft.pickup_location_id || null,
    dropoff_location_id: dropoff || null,
    // Until the traveller chooses, nobody is driving for them: no driver is charged.
    driver_option: draft.driver_option === 'provided' ? 'provided' : 'self',
    extras: [...new Set(draft.extras)],
    insurance: normalizeInsurance(draft.insurance),
  };
}

/** The draft as `quote_booking` prices it, once it has a car and valid dates. */
export function quoteOfDraft(draft: BookingDraft): QuoteRequest | null {
  const { car_id, start_at, end_at, ...rest } = requestOfDraft(draft);
  if (!car_id || !start_at || !end_at) return null;
  return { car_id, start_at, end_at, ...rest };
}

/**
 * The device's price for a draft, or null when it cannot be computed yet (no car or dates, the
 * catalogue not read or not synced, a retired option). Places not chosen yet cost nothing yet.
 */
export function priceOfDraft(
  draft: BookingDraft,
  rows: PricingRows | null | undefined,
): PriceBreakdown | null {
  const quote = quoteOfDraft(draft);
  return quote && rows ? priceRequest(quote, rows) : null;
}

/** The `create_booking` request of a complete draft; throws when a step is missing. */
export function createRequestOfDraft(
  draft: BookingDraft,
  isGuest: boolean,
  locale: Locale,
): BookingRequest {
  const quote = quoteOfDraft(draft);
  if (
    !quote?.pickup_location_id ||
    !quote.dropoff_location_id ||
    !draft.licence ||
    draft.driver_option === ''
  ) {
    throw new Error('the draft is not complete');
  }
  const requests = cleanTypedParagraphs(draft.additional_requests);
  return {
    id: draft.id,
    reference: draft.reference,
    car_id: quote.car_id,
    start_at: quote.start_at,
    end_at: quote.end_at,
    pickup_location_id: quote.pickup_location_id,
    dropoff_location_id: quote.dropoff_location_id,
    driver_option: quote.driver_option,
    license_path: draft.licence.path,
    flight_document_path: draft.from_abroad ? (draft.flight_document?.path ?? null) : null,
    from_abroad: draft.from_abroad,
    additional_requests: requests ? requests : null,
    extras: quote.extras,
    insurance: quote.insurance,
    payment_method: 'cash',
    guest_name: isGuest ? cleanTypedText(draft.guest_name) : null,
    guest_phone: isGuest
      ? (normalizePhone(cleanTypedText(draft.guest_phone)) ?? cleanTypedText(draft.guest_phone))
      : null,
    guest_email: isGuest ? cleanTypedText(draft.guest_email) : null,
    locale,
  };
}
