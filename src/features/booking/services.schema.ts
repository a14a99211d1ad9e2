import * as z from 'zod/mini';

import { LIMITS } from '@/domain/limits';
import { normalizePhone } from '@/domain/phone';
import { cleanTypedParagraphs, cleanTypedText, isMailableAddress } from '@/domain/typed-text';

import type { ValidationMessages } from '@/features/booking/validation-messages';

export const MAX_ADDITIONAL_REQUESTS = LIMITS.text;
export const MAX_GUEST_NAME = LIMITS.name;
export const extraCodes = [
  'baby_seat',
  'full_tank',
  'second_driver',
  'additional_insurance',
  'gps',
  'wifi_hotspot',
] as const;
export const insuranceCodes = [
  'civil_liability',
  'collision_damage',
  'breakdown_assistance',
  'replacement_vehicle',
  'glass_headlights',
  'tires',
] as const;

/**
 * Step 4, additional services: the six extras, insurance (civil liability always included),
 * additional requests (≤ 500 characters) and, for a visitor without an account, the contact.
 */
export function servicesSchema(m: ValidationMessages, { isGuest }: { isGuest: boolean }) {
  const f = m.fields;
  return z
    .object({
      extras: z.array(z.enum(extraCodes)),
      insurance: z.array(z.enum(insuranceCodes)),
      additional_requests: z
        .string()
        .check(z.maxLength(MAX_ADDITIONAL_REQUESTS, m.tooLong(MAX_ADDITIONAL_REQUESTS))),
      guest_name: z.string().check(z.maxLength(MAX_GUEST_NAME, m.tooLong(MAX_GUEST_NAME))),
      guest_phone: z.string(),
      guest_email: z.string(),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (cleanTypedParagraphs(v.additional_requests).length > MAX_ADDITIONAL_REQUESTS) {
          ctx.addIssue({
            code: 'custom',
            path: ['additional_requests'],
            message: m.tooLong(MAX_ADDITIONAL_REQUESTS),
          });
        }
        if (!isGuest) return;
        // What the server reads (src/domain/typed-text.ts): invisible marks removed.
        const name = cleanTypedText(v.guest_name);
        const phone = cleanTypedText(v.guest_phone);
        if (!name) {
          ctx.addIssue({ code: 'custom', path: ['guest_name'], message: m.required(f.fullName) });
        }
        if (!phone) {
          ctx.addIssue({ code: 'custom', path: ['guest_phone'], message: m.required(f.phone) });
        } else if (normalizePhone(phone) === null) {
          ctx.addIssue({ code: 'custom', path: ['guest_phone'], message: m.invalidPhone });
        }
        const email = cleanTypedText(v.guest_email);
        if (!email) {
          ctx.addIssue({ code: 'custom', path: ['guest_email'], message: m.required(f.email) });
        } else if (!z.email().safeParse(email).success || !isMailableAddress(email)) {
          ctx.addIssue({ code: 'custom', path: ['guest_email'], message: m.invalidEmail });
        }
      }),
    );
}

export type ServicesValues = z.infer<ReturnType<typeof servicesSchema>>;
