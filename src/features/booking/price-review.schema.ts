import * as z from 'zod/mini';

import type { ValidationMessages } from '@/features/booking/validation-messages';

/**
 * Step 2, price review: nothing to type, but the step cannot be passed without a price — the
 * device must know the car, places and options to compute it (src/domain/pricing.ts).
 */
export function priceReviewSchema(m: ValidationMessages) {
  const amount = z.int().check(z.gte(0));
  return z.object({
    price: z.object(
      {
        days: z.int().check(z.gte(1)),
        base: amount,
        extras_total: amount,
        insurance_total: amount,
        driver_total: amount,
        pickup_fee: amount,
        dropoff_fee: amount,
        subtotal: amount,
        deposit: amount,
        total: amount,
        currency: z.literal('DZD'),
      },
      { error: m.priceUnavailable },
    ),
  });
}

export type PriceReviewValues = z.infer<ReturnType<typeof priceReviewSchema>>;
