import { describe, expect, it } from 'vitest';

import { buildBusyIndex, type BusyIndex } from '@/domain/availability';
import type { Car } from '@/domain/rows';

import {
  tripDays,
  activeFilterCount,
  buildSearchIndex,
  datesOutOfOrder,
  emptyFilters,
  filterCars,
  filtersToParams,
  foldText,
  parseFilters,
  priceBounds,
  rentalWindow,
  type CarFilters,
} from '@/features/catalogue/filters';
import { makeCar, syntheticCars } from '@/features/catalogue/testing/synthetic-cars';

const clio = makeCar({
  name: 'Renault Clio 5',
  make: 'Renault',
  model: 'Clio',
  body: 'hatchback',
  daily_rate_dzd: 4_500,
  transmission: 'manual',
  passengers: 5,
  features: ['air_conditioning', 'bluetooth'],
  year: 2021,
  rating_avg: 4.2,
  rating_count: 10,
});
const tucson = makeCar({
  name: 'Hyundai Tucson',
  make: 'Hyundai',
  model: 'Tucson',
  body: 'suv',
  daily_rate_dzd: 12_000,
  transmission: 'automatic',
  passengers: 5,
  features: ['air_conditioning', 'gps', 'sunroof', 'leather_seats'],
  year: 2024,
  rating_avg: 4.8,
  rating_count: 3,
  description: {
    fr: 'SUV familial confortable pour les longues routes du Sud.',
    en: 'Comfortable family SUV for long roads in the South.',
    ar: 'سيارة عائلية مريحة للطرق الطويلة في الجنوب.',
  },
});
const fiat = makeCar({
  name: 'Fiat 500 Cabriolet',
  make: 'Fiat',
  model: '500',
  body: 'convertible',
  daily_rate_dzd: 7_000,
  transmission: 'automatic',
  passengers: 2,
  seats: 2,
  features: ['air_conditioning', 'sunroof'],
  year: 2023,
});
const citroen = makeCar({
  name: 'Citroën C3',
  make: 'Citroën',
  model: 'C3',
  daily_rate_dzd: 5_500,
  passengers: 4,
  features: ['gps'],
  year: 2019,
});
const retired = makeCar({ name: 'Retired Clio', make: 'Renault', active: false });

const fleet: Car[] = [clio, tucson, fiat, citroen, retired];
const noBusy: BusyIndex = new Map();

function run(patch: Partial<CarFilters>, cars = fleet, busy = noBusy, locale = 'fr' as const) {
  const filters = { ...emptyFilters, ...patch };
  return filterCars(cars, filters, { search: buildSearchIndex(cars, locale), busy }).map(
    (car) => car.name,
  );
}

describe('filterCars', () => {
  it('hides retired cars even with no filter', () => {
    expect(run({})).not.toContain('Retired Clio');
    expect(run({})).toHaveLength(4);
  });

  it('filters by daily rate, bounds included', () => {
    expect(run({ minPrice: 5_500 }).sort()).toEqual([
      'Citroën C3',
      'Fiat 500 Cabriolet',
      'Hyundai Tucson',
    ]);
    expect(run({ maxPrice: 5_500 }).sort()).toEqual(['Citroën C3', 'Renault Clio 5']);
    expect(run({ minPrice: 5_000, maxPrice: 7_000 }).sort()).toEqual([
      'Citroën C3',
      'Fiat 500 Cabriolet',
    ]);
  });

  it('filters by transmission', () => {
    expect(run({ transmission: 'automatic' }).sort()).toEqual([
      'Fiat 500 Cabriolet',
      'Hyundai Tucson',
    ]);
    expect(run({ transmission: 'manual' }).sort()).toEqual(['Citroën C3', 'Renault Clio 5']);
  });

  it('treats passengers as "at least"', () => {
    expect(run({ passengers: 2 })).toHaveLength(4);
    expect(run({ passengers: 4 }).sort()).toEqual([
      'Citroën C3',
      'Hyundai Tucson',
      'Renault Clio 5',
    ]);
    expect(run({ passengers: 5 }).sort()).toEqual(['Hyundai Tucson', 'Renault Clio 5']);
  });

  it('requires every selected feature', () => {
    expect(run({ features: ['sunroof'] }).sort()).toEqual(['Fiat 500 Cabriolet', 'Hyundai Tucson']);
    expect(run({ features: ['sunroof', 'leather_seats'] })).toEqual(['Hyundai Tucson']);
    expect(run({ features: ['gps', 'air_conditioning'] })).toEqual(['Hyundai Tucson']);
  });

  it('searches name, make, model, body and the description in the current language', () => {
    expect(run({ q: 'clio' })).toEqual(['Renault Clio 5']);
    expect(run({ q: 'CONVERTIBLE' })).toEqual(['Fiat 500 Cabriolet']);
    expect(run({ q: 'longues routes' })).toEqual(['Hyundai Tucson']);
    // The English description is not searched in French…
    expect(run({ q: 'long roads' })).toEqual([]);
    // …but it is in English, and the Arabic one in Arabic.
    expect(run({ q: 'long roads' }, fleet, noBusy, 'en' as never)).toEqual(['Hyundai Tucson']);
    expect(run({ q: 'طرق طويلة' }, fleet, noBusy, 'ar' as never)).toEqual(['Hyundai Tucson']);
  });

  it('matches every word, ignoring case and accents', () => {
    expect(run({ q: 'citroen c3' })).toEqual(['Citroën C3']);
    expect(run({ q: 'renault tucson' })).toEqual([]);
    expect(run({ q: '   ' })).toHaveLength(4);
  });

  it('searches with a localized body label', () => {
    const cars = [tucson, fiat];
    const search = buildSearchIndex(cars, 'fr', {
      body: (body) => (body === 'convertible' ? 'Cabriolet décapotable' : body),
    });
    const result = filterCars(
      cars,
      { ...emptyFilters, q: 'decapotable' },
      { search, busy: noBusy },
    );
    expect(result.map((car) => car.name)).toEqual(['Fiat 500 Cabriolet']);
  });

  it('hides cars that are busy during the chosen dates', () => {
    // 10:00 in Algiers is 09:00 UTC.
    const busy = buildBusyIndex([
      {
        key: 'a',
        car_id: tucson.id,
        start_at: '2027-03-10T09:00:00Z',
        end_at: '2027-03-12T09:00:00Z',
      },
    ]);
    const overlapping = { start: '2027-03-11T10:00', end: '2027-03-14T10:00' };
    expect(run(overlapping, fleet, busy)).not.toContain('Hyundai Tucson');
    // Picking up exactly when the other rental ends is fine (half-open ranges).
    expect(run({ start: '2027-03-12T10:00', end: '2027-03-14T10:00' }, fleet, busy)).toContain(
      'Hyundai Tucson',
    );
    // Returning exactly when it starts is fine too; one minute later is not.
    expect(run({ start: '2027-03-08T10:00', end: '2027-03-10T10:00' }, fleet, busy)).toContain(
      'Hyundai Tucson',
    );
    expect(run({ start: '2027-03-08T10:00', end: '2027-03-10T10:01' }, fleet, busy)).not.toContain(
      'Hyundai Tucson',
    );
  });

  it('ignores dates that are incomplete or out of order', () => {
    const busy = buildBusyIndex([
      {
        key: 'a',
        car_id: clio.id,
        start_at: '2027-01-01T00:00:00Z',
        end_at: '2028-01-01T00:00:00Z',
      },
    ]);
    expect(run({ start: '2027-03-11T10:00' }, fleet, busy)).toContain('Renault Clio 5');
    expect(run({ start: '2027-03-11T10:00', end: '2027-03-10T10:00' }, fleet, busy)).toContain(
      'Renault Clio 5',
    );
  });

  it('combines filters', () => {
    expect(
      run({ transmission: 'automatic', features: ['sunroof'], maxPrice: 10_000, q: 'fiat' }),
    ).toEqual(['Fiat 500 Cabriolet']);
  });

  it('sorts by price, by year and by rating', () => {
    expect(run({ sort: 'price_asc' })).toEqual([
      'Renault Clio 5',
      'Citroën C3',
      'Fiat 500 Cabriolet',
      'Hyundai Tucson',
    ]);
    expect(run({ sort: 'price_desc' })[0]).toBe('Hyundai Tucson');
    expect(run({ sort: 'newest' })).toEqual([
      'Hyundai Tucson',
      'Fiat 500 Cabriolet',
      'Renault Clio 5',
      'Citroën C3',
    ]);
    expect(run({ sort: 'recommended' }).slice(0, 2)).toEqual(['Hyundai Tucson', 'Renault Clio 5']);
  });

  // A guard against accidental quadratic work, not a benchmark (tests/bench measures in Chromium,
  // and this machine is shared, so the bound is loose).
  it('filters 5,000 cars in linear time', () => {
    const cars = syntheticCars(5_000);
    const search = buildSearchIndex(cars, 'fr');
    const filters: CarFilters = {
      ...emptyFilters,
      q: 'tucson',
      transmission: 'automatic',
      features: ['gps'],
      sort: 'price_asc',
    };
    const started = performance.now();
    const result = filterCars(cars, filters, { search, busy: noBusy });
    const elapsed = performance.now() - started;
    expect(result.length).toBeGreaterThan(0);
    expect(result.every((car) => car.model === 'Tucson' && car.features.includes('gps'))).toBe(
      true,
    );
    expect(elapsed).toBeLessThan(1_000);
  });
});

describe('URL round trip', () => {
  it('writes only non-default filters and reads them back', () => {
    const filters: CarFilters = {
      q: 'clio diesel',
      minPrice: 3000,
      maxPrice: 9000,
      transmission: 'automatic',
      passengers: 4,
      features: ['gps', 'sunroof'],
      start: '2027-03-10T10:00',
      end: '2027-03-12T18:30',
      pickup: 'loc-alg',
      sort: 'price_asc',
    };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe(
      'q=clio+diesel&min=3000&max=9000&transmission=automatic&passengers=4&features=gps%2Csunroof' +
        '&start=2027-03-10T10%3A00&end=2027-03-12T18%3A30&pickup=loc-alg&sort=price_asc',
    );
    expect(parseFilters(new URLSearchParams(params.toString()))).toEqual(filters);
    expect(filtersToParams(emptyFilters).toString()).toBe('');
  });

  it('falls back to no filter for malformed values', () => {
    const filters = parseFilters(
      new URLSearchParams(
        'min=abc&max=-5&transmission=hover&passengers=3&features=gps,teleport&start=2027-02-30T10:00&end=soon&sort=random',
      ),
    );
    expect(filters).toEqual({ ...emptyFilters, features: ['gps'] });
  });
});

describe('helpers', () => {
  it('folds accents, case and Arabic letter variants', () => {
    expect(foldText('Citroën ÉLYSÉE')).toBe('citroen elysee');
    expect(foldText('سيّارة أجرة')).toBe(foldText('سياره اجره'));
  });

  it('reads the rental window in Algiers time', () => {
    expect(rentalWindow({ start: '2027-03-10T10:00', end: '2027-03-10T12:00' })).toEqual({
      startMs: Date.parse('2027-03-10T09:00:00Z'),
      endMs: Date.parse('2027-03-10T11:00:00Z'),
    });
    expect(rentalWindow({ start: '2027-03-10T10:00', end: '' })).toBeNull();
    expect(datesOutOfOrder({ start: '2027-03-10T10:00', end: '2027-03-10T10:00' })).toBe(true);
    expect(datesOutOfOrder({ start: '2027-03-10T10:00', end: '' })).toBe(false);
  });

  it('counts active filters and finds price bounds among active cars', () => {
    expect(activeFilterCount(emptyFilters)).toBe(0);
    expect(
      activeFilterCount({ ...emptyFilters, q: 'x', features: ['gps', 'sunroof'], sort: 'newest' }),
    ).toBe(3);
    expect(priceBounds(fleet)).toEqual({ min: 4_500, max: 12_000 });
    expect(priceBounds([retired])).toBeNull();
  });
});

describe('tripDays', () => {
  it('counts the days the dates bill, a started day whole', () => {
    expect(tripDays({ start: '2027-03-10T10:00', end: '2027-03-12T10:00' })).toBe(2);
    expect(tripDays({ start: '2027-03-10T10:00', end: '2027-03-12T11:00' })).toBe(3);
    expect(tripDays({ start: '2027-03-10T10:00', end: '2027-03-10T12:00' })).toBe(1);
  });

  it('is null without a valid period', () => {
    expect(tripDays({ start: '', end: '2027-03-12T10:00' })).toBeNull();
    expect(tripDays({ start: '2027-03-12T10:00', end: '2027-03-10T10:00' })).toBeNull();
  });
});
