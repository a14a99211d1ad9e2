import { z } from 'zod';

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
    .superRefine((file, ctx) => {
      if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) {
        ctx.addIssue({ code: 'custom', message: m.unsupportedFileType });
      } else if (file.size > MAX_UPLOAD_BYTES) {
        ctx.addIssue({ code: 'custom', message: m.fileTooLarge });
      }
    });
}

/**
 * Step 3, location and licence: pickup and dropoff (same or another place, city or airport),
 * driver option, the licence, and flight documents when coming from abroad.
 */
export function locationSchema(m: ValidationMessages) {
  const f = m.fields;
  return z
    .object({
      pickup_location_id: z.string().min(1, m.required(f.pickupLocation)),
      dropoff_same: z.boolean(),
      dropoff_location_id: z.string(),
      driver_option: z.enum(['self', 'provided'], { error: m.required(f.driverOption) }),
      licence: draftFileSchema(m, f.licence).nullable(),
      from_abroad: z.boolean(),
      flight_document: draftFileSchema(m, f.flightDocument).nullable(),
    })
    .superRefine(
      (v, ctx) => {
        if (!v.dropoff_same && !v.dropoff_location_id) {
          ctx.addIssue({
            code: 'custom',
            path: ['dropoff_location_id'],
            message: m.required(f.dropoffLocation),
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
    );
}

export type LocationValues = z.infer<ReturnType<typeof locationSchema>>;
