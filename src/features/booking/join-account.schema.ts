import { z } from 'zod';

/**
 * What a guest adds to the booking's name, phone and address to open an account: the sign-up's
 * rules for age and address (the Before User Created hook checks the same, docs/auth.md).
 */
export const accountFieldsSchema = z.object({
  age: z.coerce.number().int().min(18).max(120),
  address: z
    .string()
    .trim()
    .min(1)
    .max(200)
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v)),
});

export type AccountFields = z.infer<typeof accountFieldsSchema>;
