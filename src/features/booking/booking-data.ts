import { useLiveQuery } from 'dexie-react-hooks';

import { busyOverlaps, type BusyPeriod } from '@/domain/availability';
import { algiersToIso } from '@/domain/dates';
import { computePrice } from '@/domain/pricing';
import type {
  Car,
  Extra,
  InsuranceOption,
  Location,
  PriceBreakdown,
  Settings,
} from '@/domain/rows';
import { db, type LocalBooking } from '@/infra/db';
import { readPricingSettings } from '@/sync/bookings-sync';

import type { BookingDraft } from '@/features/booking/draft';

/** What the wizard reads from the synced catalogue (Dexie), live. */
export type BookingCatalogue = {
  cars: Car[];
  locations: Location[];
  extras: Extra[];
  insurance: InsuranceOption[];
  busy: BusyPeriod[];
  settings: Pick<Settings, 'driver_per_day_dzd'> | null;
};

/** The catalogue, or undefined while IndexedDB is being read. */
export function useBookingCatalogue(): BookingCatalogue | undefined {
  return useLiveQuery(async () => {
    const [cars, locations, extras, insurance, busy, settings] = await Promise.all([
      db.cars.toArray(),
      db.locations.toArray(),
      db.extras.toArray(),
      db.insurance.toArray(),
      db.busy.toArray(),
      readPricingSettings(),
    ]);
    return { cars, locations, extras, insurance, busy, settings };
  }, []);
}

/** The rental as instants, when the dates and times are valid. */
export function draftPeriod(
  draft: Pick<BookingDraft, 'start_date' | 'start_time' | 'end_date' | 'end_time'>,
): { start: string; end: string } | null {
  const start = algiersToIso(draft.start_date, draft.start_time);
  const end = algiersToIso(draft.end_date, draft.end_time);
  if (!start || !end || Date.parse(end) <= Date.parse(start)) return null;
  return { start, end };
}

/** Active cars free for the whole period, cheapest first. */
export function availableCars(
  catalogue: Pick<BookingCatalogue, 'cars' | 'busy'>,
  start: string,
  end: string,
  exceptCarId?: string,
): Car[] {
  return catalogue.cars
    .filter((c) => c.active && c.id !== exceptCarId)
    .filter((c) => busyOverlaps(catalogue.busy, c.id, start, end).length === 0)
    .sort((a, b) => a.daily_rate_dzd - b.daily_rate_dzd);
}

/**
 * The device's price for a draft, or null when it cannot be computed (unknown car, settings
 * not synced yet, invalid dates, a retired option). Places not chosen yet cost nothing yet.
 */
export function priceOfDraft(
  draft: BookingDraft,
  catalogue: BookingCatalogue | undefined,
  overrides: { car_id?: string; start_at?: string; end_at?: string } = {},
): PriceBreakdown | null {
  if (!catalogue?.settings) return null;
  const car = catalogue.cars.find((c) => c.id === (overrides.car_id ?? draft.car_id));
  const period = draftPeriod(draft);
  const start = overrides.start_at ?? period?.start;
  const end = overrides.end_at ?? period?.end;
  if (!car || !start || !end) return null;
  const pickup = catalogue.locations.find((l) => l.id === draft.pickup_location_id);
  const dropoff = draft.dropoff_same
    ? pickup
    : catalogue.locations.find((l) => l.id === draft.dropoff_location_id);
  try {
    return computePrice(
      {
        start_at: start,
        end_at: end,
        driver_option: draft.driver_option === 'provided' ? 'provided' : 'self',
        extras: draft.extras,
        insurance: draft.insurance,
      },
      {
        car,
        pickup: pickup ?? { delivery_fee_dzd: 0 },
        dropoff: dropoff ?? { delivery_fee_dzd: 0 },
        extras: catalogue.extras,
        insurance: catalogue.insurance,
        settings: catalogue.settings,
      },
    );
  } catch {
    return null;
  }
}

/** The device's price for a stored booking, with another car or other dates. */
export function priceOfBooking(
  booking: Pick<
    LocalBooking,
    | 'car_id'
    | 'start_at'
    | 'end_at'
    | 'pickup_location_id'
    | 'dropoff_location_id'
    | 'driver_option'
    | 'extras'
    | 'insurance'
  >,
  catalogue: BookingCatalogue | undefined,
  overrides: { car_id?: string; start_at?: string; end_at?: string } = {},
): PriceBreakdown | null {
  if (!catalogue?.settings) return null;
  const car = catalogue.cars.find((c) => c.id === (overrides.car_id ?? booking.car_id));
  const pickup = catalogue.locations.find((l) => l.id === booking.pickup_location_id);
  const dropoff = catalogue.locations.find((l) => l.id === booking.dropoff_location_id);
  if (!car || !pickup || !dropoff) return null;
  try {
    return computePrice(
      {
        start_at: overrides.start_at ?? booking.start_at,
        end_at: overrides.end_at ?? booking.end_at,
        driver_option: booking.driver_option,
        extras: booking.extras,
        insurance: booking.insurance,
      },
      {
        car,
        pickup,
        dropoff,
        extras: catalogue.extras,
        insurance: catalogue.insurance,
        settings: catalogue.settings,
      },
    );
  } catch {
    return null;
  }
}
