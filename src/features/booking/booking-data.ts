import { useLiveQuery } from 'dexie-react-hooks';

import { busyOverlaps, type BusyPeriod } from '@/domain/availability';
import type { Car, Extra, InsuranceOption, Location, Settings } from '@/domain/rows';
import { db } from '@/infra/db';
import { readPricingSettings } from '@/sync/bookings-sync';

/** What the wizard reads from the synced catalogue (Dexie), live. */
export type BookingCatalogue = {
  cars: Car[];
  locations: Location[];
  extras: Extra[];
  insurance: InsuranceOption[];
  busy: BusyPeriod[];
  settings: Pick<Settings, 'driver_per_day_dzd' | 'booking_horizon_days'> | null;
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
