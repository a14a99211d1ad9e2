import { isCarAvailable, type BusyIndex } from '@/domain/availability';
import { algiersToIso, rentalDays } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import type { Car, CarFeature } from '@/domain/rows';

/** The spec's car filters (docs/product.md §9), plus text search, rental dates and sorting. */
export const transmissionOptions = ['all', 'automatic', 'manual'] as const;
export const passengerOptions = ['all', 2, 4, 5] as const;
export const filterFeatures = [
  'air_conditioning',
  'gps',
  'sunroof',
  'leather_seats',
] as const satisfies readonly CarFeature[];
export const sortOptions = ['recommended', 'price_asc', 'price_desc', 'newest'] as const;

export type TransmissionFilter = (typeof transmissionOptions)[number];
export type PassengersFilter = (typeof passengerOptions)[number];
export type FilterFeature = (typeof filterFeatures)[number];
export type SortOrder = (typeof sortOptions)[number];

export type CarFilters = {
  q: string;
  /** Daily rate bounds in DZD, inclusive; null = no bound. */
  minPrice: number | null;
  maxPrice: number | null;
  transmission: TransmissionFilter;
  /** At least this many passengers. */
  passengers: PassengersFilter;
  /** Every listed feature is required. */
  features: FilterFeature[];
  /** Pickup and return as Algiers wall-clock `YYYY-MM-DDTHH:mm`; empty = not chosen. */
  start: string;
  end: string;
  /** Pickup location id, carried to the booking wizard (every car can be delivered anywhere). */
  pickup: string;
  sort: SortOrder;
};

export const emptyFilters: CarFilters = {
  q: '',
  minPrice: null,
  maxPrice: null,
  transmission: 'all',
  passengers: 'all',
  features: [],
  start: '',
  end: '',
  pickup: '',
  sort: 'recommended',
};

/** URL query parameter names: short, stable, shared with the home search and the wizard. */
export const filterParams = {
  q: 'q',
  minPrice: 'min',
  maxPrice: 'max',
  transmission: 'transmission',
  passengers: 'passengers',
  features: 'features',
  start: 'start',
  end: 'end',
  pickup: 'pickup',
  sort: 'sort',
} as const satisfies Record<keyof CarFilters, string>;

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function parsePrice(value: string | null): number | null {
  if (value == null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

function parseWallClock(value: string | null): string {
  return value && WALL_CLOCK.test(value) && wallClockToMs(value) != null ? value : '';
}

/** Reads filters from a URL query; unknown or malformed values fall back to "no filter". */
export function parseFilters(params: URLSearchParams): CarFilters {
  const transmission = params.get(filterParams.transmission);
  const passengers = Number(params.get(filterParams.passengers));
  const sort = params.get(filterParams.sort);
  const features = (params.get(filterParams.features) ?? '')
    .split(',')
    .filter((f): f is FilterFeature => (filterFeatures as readonly string[]).includes(f));
  return {
    q: (params.get(filterParams.q) ?? '').slice(0, 200),
    minPrice: parsePrice(params.get(filterParams.minPrice)),
    maxPrice: parsePrice(params.get(filterParams.maxPrice)),
    transmission: (transmissionOptions as readonly string[]).includes(transmission ?? '')
      ? (transmission as TransmissionFilter)
      : 'all',
    passengers: (passengerOptions as readonly unknown[]).includes(passengers)
      ? (passengers as PassengersFilter)
      : 'all',
    features: filterFeatures.filter((f) => features.includes(f)),
    start: parseWallClock(params.get(filterParams.start)),
    end: parseWallClock(params.get(filterParams.end)),
    pickup: params.get(filterParams.pickup) ?? '',
    sort: (sortOptions as readonly string[]).includes(sort ?? '')
      ? (sort as SortOrder)
      : 'recommended',
  };
}

/** Writes filters as a URL query, leaving defaults out so URLs stay short. */
export function filtersToParams(filters: CarFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set(filterParams.q, filters.q);
  if (filters.minPrice != null) params.set(filterParams.minPrice, String(filters.minPrice));
  if (filters.maxPrice != null) params.set(filterParams.maxPrice, String(filters.maxPrice));
  if (filters.transmission !== 'all') params.set(filterParams.transmission, filters.transmission);
  if (filters.passengers !== 'all') params.set(filterParams.passengers, String(filters.passengers));
  if (filters.features.length) params.set(filterParams.features, filters.features.join(','));
  if (filters.start) params.set(filterParams.start, filters.start);
  if (filters.end) params.set(filterParams.end, filters.end);
  if (filters.pickup) params.set(filterParams.pickup, filters.pickup);
  if (filters.sort !== 'recommended') params.set(filterParams.sort, filters.sort);
  return params;
}

/** Epoch ms of an Algiers wall-clock `YYYY-MM-DDTHH:mm`, or null. */
export function wallClockToMs(value: string): number | null {
  const [date = '', time = ''] = value.split('T');
  const iso = algiersToIso(date, time);
  return iso ? Date.parse(iso) : null;
}

/** The rental period chosen in the filters: null when incomplete or not after each other. */
export function rentalWindow(filters: Pick<CarFilters, 'start' | 'end'>): {
  startMs: number;
  endMs: number;
} | null {
  const startMs = filters.start ? wallClockToMs(filters.start) : null;
  const endMs = filters.end ? wallClockToMs(filters.end) : null;
  if (startMs == null || endMs == null || endMs <= startMs) return null;
  return { startMs, endMs };
}

/**
 * The days the chosen dates bill (whole 24-hour periods, rounded up: `rentalDays`, as the price),
 * or null without a valid period: what a car's trip total multiplies its daily rate by.
 */
export function tripDays(filters: Pick<CarFilters, 'start' | 'end'>): number | null {
  const window = rentalWindow(filters);
  if (!window) return null;
  return rentalDays(new Date(window.startMs).toISOString(), new Date(window.endMs).toISOString());
}

/** Whether the chosen dates are both set but the return is not after the pickup. */
export function datesOutOfOrder(filters: Pick<CarFilters, 'start' | 'end'>): boolean {
  const startMs = filters.start ? wallClockToMs(filters.start) : null;
  const endMs = filters.end ? wallClockToMs(filters.end) : null;
  return startMs != null && endMs != null && endMs <= startMs;
}

/** How many filters narrow the list (for the "reset" affordance); sorting is not a filter. */
export function activeFilterCount(filters: CarFilters): number {
  return (
    (filters.q.trim() ? 1 : 0) +
    (filters.minPrice != null ? 1 : 0) +
    (filters.maxPrice != null ? 1 : 0) +
    (filters.transmission !== 'all' ? 1 : 0) +
    (filters.passengers !== 'all' ? 1 : 0) +
    filters.features.length +
    (rentalWindow(filters) ? 1 : 0)
  );
}

/**
 * Folds text for search: lower case, no accents or Arabic diacritics, unified Arabic letter
 * variants (أ إ آ → ا, ة → ه, ى → ي), so "citroen" finds "Citroën" and "سياره" finds "سيّارة".
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\p{M}\u0640]/gu, '')
    .toLowerCase()
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي');
}

/** What the text search looks at for one car, in one language. */
export function searchText(
  car: Car,
  locale: Locale,
  labels: { body?: (body: string) => string } = {},
): string {
  return foldText(
    [
      car.name,
      car.make,
      car.model,
      car.body,
      labels.body?.(car.body) ?? '',
      car.description?.[locale] ?? '',
    ].join(' \u0000 '),
  );
}

export type SearchIndex = ReadonlyMap<string, string>;

export function buildSearchIndex(
  cars: readonly Car[],
  locale: Locale,
  labels: { body?: (body: string) => string } = {},
): SearchIndex {
  return new Map(cars.map((car) => [car.id, searchText(car, locale, labels)]));
}

export type FilterContext = {
  search: SearchIndex;
  busy: BusyIndex;
};

/**
 * The cars that pass every filter, in the chosen order. Pure: the UI memoises it. The list is
 * sorted once per order and list of cars (cached), so a filter change only walks it.
 */
export function filterCars(
  cars: readonly Car[],
  filters: CarFilters,
  context: FilterContext,
): Car[] {
  const tokens = foldText(filters.q).split(/\s+/).filter(Boolean);
  const window = rentalWindow(filters);
  const minPassengers = filters.passengers === 'all' ? 0 : filters.passengers;
  return sortedCars(cars, filters.sort).filter((car) => {
    if (!car.active) return false;
    if (filters.minPrice != null && car.daily_rate_dzd < filters.minPrice) return false;
    if (filters.maxPrice != null && car.daily_rate_dzd > filters.maxPrice) return false;
    if (filters.transmission !== 'all' && car.transmission !== filters.transmission) return false;
    if (car.passengers < minPassengers) return false;
    for (const feature of filters.features) if (!car.features.includes(feature)) return false;
    if (tokens.length) {
      const haystack = context.search.get(car.id) ?? '';
      for (const token of tokens) if (!haystack.includes(token)) return false;
    }
    if (window && !isCarAvailable(context.busy, car.id, window.startMs, window.endMs)) return false;
    return true;
  });
}

// Made at the first sort, not when the module loads: building a collator loads its ICU data
// (≈ 25 ms of main thread at 4× CPU), which screens that never sort (the wizard) need not pay.
let collator: Intl.Collator | undefined;
const byName = (a: Car, b: Car) =>
  (collator ??= new Intl.Collator('fr')).compare(a.name, b.name) || (a.id < b.id ? -1 : 1);

const comparators: Record<SortOrder, (a: Car, b: Car) => number> = {
  price_asc: (a, b) => a.daily_rate_dzd - b.daily_rate_dzd,
  price_desc: (a, b) => b.daily_rate_dzd - a.daily_rate_dzd,
  newest: (a, b) => b.year - a.year,
  recommended: (a, b) =>
    (b.rating_avg ?? 0) - (a.rating_avg ?? 0) || (b.rating_count ?? 0) - (a.rating_count ?? 0),
};

/** A new array of `cars` in the given order; ties by name, then id (stable across renders). */
export function sortCars(cars: readonly Car[], order: SortOrder): Car[] {
  const compare = comparators[order];
  return [...cars].sort((a, b) => compare(a, b) || byName(a, b));
}

const sortCache = new WeakMap<readonly Car[], Partial<Record<SortOrder, Car[]>>>();

function sortedCars(cars: readonly Car[], order: SortOrder): readonly Car[] {
  let byOrder = sortCache.get(cars);
  if (!byOrder) sortCache.set(cars, (byOrder = {}));
  return (byOrder[order] ??= sortCars(cars, order));
}

/** The cheapest and dearest daily rates among active cars (bounds of the price inputs). */
export function priceBounds(cars: readonly Car[]): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const car of cars) {
    if (!car.active) continue;
    if (car.daily_rate_dzd < min) min = car.daily_rate_dzd;
    if (car.daily_rate_dzd > max) max = car.daily_rate_dzd;
  }
  return min === Infinity ? null : { min, max };
}
