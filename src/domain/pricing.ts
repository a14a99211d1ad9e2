/**
 * The price of a booking, computed on the device from the synced catalogue with exactly the rules
 * of docs/decisions.md (the server's `quote_booking` applies the same ones; tests/api/pricing.test.ts
 * holds the two equal). Pure: no I/O, whole DZD, no rounding; it imports nothing but types, so the
 * Node test project can load it as is.
 */
import type { PricingInput, QuoteRequest } from '@/domain/booking-request';
import type {
  Car,
  Extra,
  InsuranceOption,
  Location,
  PriceBreakdown,
  Settings,
} from '@/domain/rows';

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

export function computePrice(draft: PricingInput, catalogue: PricingCatalogue): PriceBreakdown {
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

/** The synced rows a request is priced from (the catalogue on the device). */
export type PricingRows = {
  cars: readonly Pick<Car, 'id' | 'daily_rate_dzd' | 'deposit_dzd'>[];
  locations: readonly Pick<Location, 'id' | 'delivery_fee_dzd'>[];
  extras: PricingCatalogue['extras'];
  insurance: PricingCatalogue['insurance'];
  settings: PricingCatalogue['settings'] | null;
};

/**
 * The device's price of a request (a draft's, or a stored booking's with another car or other
 * dates), or null when these rows cannot price it: settings not synced yet, an unknown car or
 * place, invalid dates, a retired option. A place not chosen yet (null) costs nothing yet, as
 * with `quote_booking`.
 */
export function priceRequest(
  request: PricingInput &
    Pick<QuoteRequest, 'car_id' | 'pickup_location_id' | 'dropoff_location_id'>,
  rows: PricingRows,
): PriceBreakdown | null {
  if (!rows.settings) return null;
  const car = rows.cars.find((c) => c.id === request.car_id);
  const place = (id: string | null) =>
    id === null ? { delivery_fee_dzd: 0 } : rows.locations.find((l) => l.id === id);
  const pickup = place(request.pickup_location_id);
  const dropoff = place(request.dropoff_location_id);
  if (!car || !pickup || !dropoff) return null;
  try {
    return computePrice(request, {
      car,
      pickup,
      dropoff,
      extras: rows.extras,
      insurance: rows.insurance,
      settings: rows.settings,
    });
  } catch (error) {
    if (error instanceof PricingError) return null;
    throw error;
  }
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
