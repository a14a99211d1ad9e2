import { emptyFilters, filtersToParams } from '@/features/catalogue/filters';

/** The booking wizard's entry: the car, and the dates and place when known. */
export function bookingHref(carId: string, start: string, end: string, pickup: string): string {
  const params = new URLSearchParams({ car: carId });
  if (start) params.set('start', start);
  if (end) params.set('end', end);
  if (pickup) params.set('pickup', pickup);
  return `/cars/book?${params.toString()}`;
}

/** The car list for the same dates and place (the cars free then); the whole list without them. */
export function freeCarsHref(start: string, end: string, pickup: string): string {
  const params = filtersToParams({ ...emptyFilters, start, end, pickup });
  return params.size ? `/cars?${params.toString()}` : '/cars';
}
