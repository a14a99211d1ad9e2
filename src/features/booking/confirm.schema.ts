import * as z from 'zod/mini';

import type { ValidationMessages } from '@/features/booking/validation-messages';

/**
 * Step 5, review and confirmation: payment is cash at pickup, guaranteed by a refundable cash
 * deposit and an original ID, which the customer acknowledges.
 */
export function confirmSchema(m: ValidationMessages) {
  return z.object({
    payment_method: z.literal('cash', { error: m.required(m.fields.paymentMethod) }),
    accept_guarantee: z.literal(true, { error: m.acceptGuarantee }),
  });
}

export type ConfirmValues = z.infer<ReturnType<typeof confirmSchema>>;
