/**
 * A booking request: what the device asks the server for, once, in one shape. It is the payload of
 * `create_booking(p)` (the columns of docs/database.md, as the client sends them); the price's
 * inputs (pricing.ts) and `quote_booking`'s are parts of it. The booking feature builds it from
 * its draft in one place (src/features/booking/draft-request.ts), the outbox validates and sends
 * it, and the server checks every field again.
 */
import * as z from 'zod/mini';

import { LIMITS } from '@/domain/limits';
import { locales } from '@/domain/locale';
import { REFERENCE_RE } from '@/domain/reference';

/** The private buckets a booking's documents go to, `{booking_id}/{file}` inside. */
export const uploadBuckets = ['licenses', 'flight-documents'] as const;
export type UploadBucket = (typeof uploadBuckets)[number];

export const driverOptions = ['self', 'provided'] as const;
export type DriverOption = (typeof driverOptions)[number];

export const bookingRequestSchema = z.object({
  id: z.guid(),
  reference: z.string().check(z.regex(REFERENCE_RE)),
  car_id: z.guid(),
  start_at: z.iso.datetime({ offset: true }),
  end_at: z.iso.datetime({ offset: true }),
  pickup_location_id: z.guid(),
  dropoff_location_id: z.guid(),
  driver_option: z.enum(driverOptions),
  license_path: z.string().check(z.minLength(1)),
  flight_document_path: z.nullable(z.string().check(z.minLength(1))),
  from_abroad: z.boolean(),
  additional_requests: z.nullable(z.string().check(z.maxLength(LIMITS.text))),
  extras: z.array(z.string()),
  insurance: z.array(z.string()),
  payment_method: z.literal('cash'),
  guest_name: z.nullable(z.string()),
  guest_phone: z.nullable(z.string()),
  guest_email: z.nullable(z.string()),
  /**
   * The language of the guest's mails: the app's language when the booking was made (French for
   * a request queued by an older version of the app).
   */
  locale: z._default(z.enum(locales), 'fr'),
});
export type BookingRequest = z.infer<typeof bookingRequestSchema>;

/**
 * What `quote_booking(p)` prices: the request's car, dates, driver and options, and its places
 * once they are chosen (null before: a place not chosen yet costs nothing yet).
 */
export type QuoteRequest = Pick<
  BookingRequest,
  'car_id' | 'start_at' | 'end_at' | 'driver_option' | 'extras' | 'insurance'
> & {
  pickup_location_id: string | null;
  dropoff_location_id: string | null;
};

/** What the price depends on besides the catalogue (pricing.ts). */
export type PricingInput = Pick<QuoteRequest, 'start_at' | 'end_at' | 'driver_option'> & {
  extras: readonly string[];
  insurance: readonly string[];
};

/** The quote part of a request (or of a stored booking): exactly the keys `quote_booking` reads. */
export function quoteOf(request: QuoteRequest): QuoteRequest {
  return {
    car_id: request.car_id,
    start_at: request.start_at,
    end_at: request.end_at,
    pickup_location_id: request.pickup_location_id,
    dropoff_location_id: request.dropoff_location_id,
    driver_option: request.driver_option,
    extras: request.extras,
    insurance: request.insurance,
  };
}
