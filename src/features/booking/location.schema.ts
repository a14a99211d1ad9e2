import * as z from 'zod/mini';

import { algiersToIso } from '@/domain/dates';
import { isOpenAt, type PlaceHours } from '@/domain/opening-hours';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES } from '@/infra/image-prepare';

import type { DraftFile } from '@/features/booking/draft';
import type { ValidationMessages } from '@/features/booking/validation-messages';

/** A chosen file: PDF or image (type read from its bytes when chosen), at most 5 MB. */
export function draftFileSchema(m: ValidationMessages, field: string) {
  return z
    .custom<DraftFile>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as DraftFile).id === 'string' &&
        typeof (value as DraftFile).path === 'string' &&
        typeof (value as DraftFile).size === 'number',
      { error: m.required(field) },
    )
    .check(
      z.superRefine((file, ctx) => {
        if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) {
          ctx.addIssue({ code: 'custom', message: m.unsupportedFileType });
        } else if (file.size > MAX_UPLOAD_BYTES) {
          ctx.addIssue({ code: 'custom', message: m.fileTooLarge });
        }
      }),
    );
}

/** What the opening-hours check needs: the synced places and the draft's dates (Algiers). */
export type HoursContext = {
  locations: readonly (PlaceHours & { id: string })[];
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
};

/**
 * Step 3, location and licence: pickup and dropoff (same or another place, city or airport),
 * driver option, the licence, and flight documents when coming from abroad. With `hours`, a place
 * closed at the pickup (or return) time is refused, as create_booking does
 * (docs/opening-hours.md); a place the device does not know is left to the server.
 */
export function locationSchema(m: ValidationMessages, hours?: HoursContext) {
  const start = hours ? algiersToIso(hours.start_date, hours.start_time) : null;
  const end = hours ? algiersToIso(hours.end_date, hours.end_time) : null;
  const place = (id: string) => hours?.locations.find((l) => l.id === id);
  const f = m.fields;
  return z
    .object({
      pickup_location_id: z.string().check(z.minLength(1, m.required(f.pickupLocation))),
      dropoff_same: z.boolean(),
      dropoff_location_id: z.string(),
      driver_option: z.enum(['self', 'provided'], { error: m.required(f.driverOption) }),
      licence: z.nullable(draftFileSchema(m, f.licence)),
      from_abroad: z.boolean(),
      flight_document: z.nullable(draftFileSchema(m, f.flightDocument)),
    })
    .check(
      z.superRefine(
        (v, ctx) => {
          if (!v.dropoff_same && !v.dropoff_location_id) {
            ctx.addIssue({
              code: 'custom',
              path: ['dropoff_location_id'],
              message: m.required(f.dropoffLocation),
            });
          }
          const pickup = place(v.pickup_location_id);
          if (pickup && start && !isOpenAt(pickup, start)) {
            ctx.addIssue({ code: 'custom', path: ['pickup_location_id'], message: m.pickupClosed });
          }
          const dropoff = place(v.dropoff_same ? v.pickup_location_id : v.dropoff_location_id);
          if (dropoff && end && !isOpenAt(dropoff, end)) {
            ctx.addIssue({
              code: 'custom',
              path: [v.dropoff_same ? 'pickup_location_id' : 'dropoff_location_id'],
              message: m.returnClosed,
            });
          }
          if (!v.licence) {
            ctx.addIssue({ code: 'custom', path: ['licence'], message: m.required(f.licence) });
          }
          if (v.from_abroad && !v.flight_document) {
            ctx.addIssue({
              code: 'custom',
              path: ['flight_document'],
              message: m.required(f.flightDocument),
            });
          }
        },
        // Also when another field is invalid: every error shows at the first submit (the licence's
        // came only at the second, issue 13). The checks read plain truthiness, safe on bad input.
        { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
      ),
    );
}

export type LocationValues = z.infer<ReturnType<typeof locationSchema>>;

/** The hours context of a draft, from the device's catalogue (none before the first sync). */
export function hoursContext(
  draft: Pick<HoursContext, 'start_date' | 'start_time' | 'end_date' | 'end_time'>,
  catalogue: { locations: HoursContext['locations'] } | null | undefined,
): HoursContext | undefined {
  if (!catalogue) return undefined;
  return {
    locations: catalogue.locations,
    start_date: draft.start_date,
    start_time: draft.start_time,
    end_date: draft.end_date,
    end_time: draft.end_time,
  };
}
