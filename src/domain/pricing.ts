/**
 * The price of a booking, computed on the device from the synced catalogue with exactly the rules
 * of docs/decisions.md (the server's `quote_booking` applies the same ones; tests/api/pricing.test.ts
 * holds the two equal). Pure: no I/O, whole DZD, no rounding; it imports nothing but types, so the
 * Node test project can load it as is.
 */
import type {
  Car,
  Extra,
  InsuranceOption,
  Location,
  PriceBreakdown,
  Settings,
} from '@/domain/rows';

/** The part of a booking draft that decides its price (RPC payload keys, ARCHITECTURE.md §2). */
export type PricingDraft = {
  start_at: string;
  end_at: string;
  driver_option: 'self' | 'provided';
  extras: readonly string[];
  insurance: readonly string[];
};

/** The rows of the catalogue the price depends on. */
export type PricingCatalogue = {
  car: Pick<Car, 'daily_rate_dzd' | 'deposit_dzd'>;
  pickup: Pick<Location, 'delivery_fee_dzd'>;
  dropoff: Pick<Location, 'delivery_fee_dzd'>;
  extras: readonly Pick<Extra, 'code' | 'price_dzd' | 'per' | 'active'>[];
  insurance: readonly Pick<InsuranceOption, 'code' | 'price_dzd_per_day' | 'included' | 'active'>[];
  settings: Pick<Settings, 'driver_per_day_dzd'>;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export type PricingErrorCode = 'unknown_extra' | 'unknown_insurance' | 'invalid_dates';

export class PricingError extends Error {
  constructor(readonly code: PricingErrorCode) {
    super(code);
    this.name = 'PricingError';
  }
}

/** The insurance a booking carries: the chosen codes, civil liability always, no duplicates. */
export function normalizeInsurance(codes: readonly string[]): string[] {
  return [...new Set(['civil_liability', ...codes])];
}

export function computePrice(draft: PricingDraft, catalogue: PricingCatalogue): PriceBreakdown {
  const start = Date.parse(draft.start_at);
  const end = Date.parse(draft.end_at);
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new PricingError('invalid_dates');
  const days = Math.max(1, Math.ceil((end - start) / DAY_MS));

  let extrasTotal = 0;
  for (const code of new Set(draft.extras)) {
    const extra = catalogue.extras.find((e) => e.code === code && e.active);
    if (!extra) throw new PricingError('unknown_extra');
    extrasTotal += extra.per === 'day' ? extra.price_dzd * days : extra.price_dzd;
  }

  let insuranceTotal = 0;
  for (const code of normalizeInsurance(draft.insurance)) {
    const option = catalogue.insurance.find((i) => i.code === code && i.active);
    if (!option) throw new PricingError('unknown_insurance');
    if (!option.included) insuranceTotal += option.price_dzd_per_day * days;
  }

  const base = catalogue.car.daily_rate_dzd * days;
  const driverTotal =
    draft.driver_option === 'provided' ? catalogue.settings.driver_per_day_dzd * days : 0;
  const pickupFee = catalogue.pickup.delivery_fee_dzd;
  const dropoffFee = catalogue.dropoff.delivery_fee_dzd;
  const subtotal = base + extrasTotal + insuranceTotal + driverTotal + pickupFee + dropoffFee;

  return {
    days,
    base,
    extras_total: extrasTotal,
    insurance_total: insuranceTotal,
    driver_total: driverTotal,
    pickup_fee: pickupFee,
    dropoff_fee: dropoffFee,
    subtotal,
    deposit: catalogue.car.deposit_dzd,
    total: subtotal,
    currency: 'DZD',
  };
}

/** True when two breakdowns agree on every amount. */
export function samePrice(a: PriceBreakdown, b: PriceBreakdown): boolean {
  const keys: (keyof PriceBreakdown)[] = [
    'days',
    'base',
    'extras_total',
    'insurance_total',
    'driver_total',
    'pickup_fee',
    'dropoff_fee',
    'subtotal',
    'deposit',
    'total',
  ];
  return keys.every((k) => Number(a[k]) === Number(b[k]));
}
