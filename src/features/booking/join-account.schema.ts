import * as z from 'zod/mini';

import { LIMITS } from '@/domain/limits';

/**
 * What a guest adds to the booking's name, phone and address to open an account: the sign-up's
 * rules for age and address (the Before User Created hook checks the same, docs/auth.md).
 */
export const accountFieldsSchema = z.object({
  age: z.pipe(z.coerce.number(), z.int().check(z.gte(LIMITS.ageMin), z.lte(LIMITS.ageMax))),
  address: z.string().check(
    z.trim(),
    z.minLength(1),
    z.maxLength(LIMITS.address),
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v)),
  ),
});

export type AccountFields = z.infer<typeof accountFieldsSchema>;
