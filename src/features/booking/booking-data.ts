import { useLiveQuery } from 'dexie-react-hooks';

import { busyOverlaps } from '@/domain/availability';
import type { Car } from '@/domain/rows';

import { type BookingCatalogue, readBookingCatalogue } from '@/features/booking/booking-store';

/** The catalogue, or undefined while IndexedDB is being read. */
export function useBookingCatalogue(): BookingCatalogue | undefined {
  return useLiveQuery(readBookingCatalogue, []);
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
