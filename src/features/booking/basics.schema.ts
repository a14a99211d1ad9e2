import * as z from 'zod/mini';

import { algiersToIso } from '@/domain/dates';

import { LIMITS } from '@/domain/limits';
import type { ValidationMessages } from '@/features/booking/validation-messages';

/** The server's `rental_too_long` (a fixed rule in create_booking). */
export const MAX_RENTAL_DAYS = LIMITS.rentalDays;
/** `settings.booking_horizon_days` when the device has not synced it yet (the server's default). */
export const DEFAULT_HORIZON_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Step 1, basic information: the car, pickup and return dates and times (Algiers time).
 * Pickup must be in the future by the device's clock (an estimate: the server decides) and at most
 * `horizonDays` ahead (the synced `settings.booking_horizon_days`), return after pickup, at most
 * 90 days: the same rules and numbers as `create_booking`.
 */
export function basicsSchema(
  m: ValidationMessages,
  now: () => number = Date.now,
  horizonDays: number = DEFAULT_HORIZON_DAYS,
) {
  const f = m.fields;
  const date = (field: string) =>
    z.string().check(z.trim(), z.minLength(1, m.required(field)), z.regex(DATE_RE, m.invalidDate));
  const time = (field: string) =>
    z.string().check(z.trim(), z.minLength(1, m.required(field)), z.regex(TIME_RE, m.invalidTime));
  return z
    .object({
      car_id: z.string().check(z.minLength(1, m.required(f.car))),
      start_date: date(f.startDate),
      start_time: time(f.startTime),
      end_date: date(f.endDate),
      end_time: time(f.endTime),
    })
    .check(
      z.superRefine((v, ctx) => {
        const start = algiersToIso(v.start_date, v.start_time);
        const end = algiersToIso(v.end_date, v.end_time);
        if (!start) {
          ctx.addIssue({ code: 'custom', path: ['start_date'], message: m.invalidDate });
        }
        if (!end) ctx.addIssue({ code: 'custom', path: ['end_date'], message: m.invalidDate });
        if (!start || !end) return;
        const s = Date.parse(start);
        const e = Date.parse(end);
        if (s <= now()) {
          ctx.addIssue({ code: 'custom', path: ['start_date'], message: m.pickupInPast });
        } else if (s > now() + horizonDays * DAY_MS) {
          ctx.addIssue({
            code: 'custom',
            path: ['start_date'],
            message: m.pickupTooFarAhead(horizonDays),
          });
        }
        if (v.end_date < v.start_date) {
          ctx.addIssue({ code: 'custom', path: ['end_date'], message: m.returnDateBeforePickup });
        } else if (e <= s) {
          ctx.addIssue({ code: 'custom', path: ['end_time'], message: m.returnTimeBeforePickup });
        } else if (e - s > MAX_RENTAL_DAYS * DAY_MS) {
          ctx.addIssue({ code: 'custom', path: ['end_date'], message: m.rentalTooLong });
        }
      }),
    );
}

export type BasicsValues = z.infer<ReturnType<typeof basicsSchema>>;
