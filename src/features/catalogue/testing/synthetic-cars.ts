/* eslint-disable lingui/no-unlocalized-strings -- test data, never shown to users */
import type { Car, CarFeature } from '@/domain/rows';

/** Test and benchmark data: realistic car rows, never bundled into the app. */

let counter = 0;

export function makeCar(overrides: Partial<Car> = {}): Car {
  counter += 1;
  const n = String(counter).padStart(4, '0');
  return {
    id: `00000000-0000-4000-8000-00000000${n}`,
    slug: `car-${n}`,
    name: `Renault Clio ${n}`,
    make: 'Renault',
    model: 'Clio',
    body: 'hatchback',
    seats: 5,
    doors: 5,
    passengers: 5,
    fuel: 'petrol',
    year: 2022,
    transmission: 'manual',
    drive: 'fwd',
    engine: '1.2 TCe 100',
    mileage_km: 30_000,
    exterior_color: 'white',
    interior_color: 'black',
    features: ['air_conditioning', 'bluetooth'],
    description: {
      fr: 'Citadine économique, idéale en ville.',
      en: 'Economical city car, ideal in town.',
      ar: 'سيارة مدينة اقتصادية، مثالية في المدينة.',
    },
    daily_rate_dzd: 5_000,
    deposit_dzd: 50_000,
    images: [],
    active: true,
    updated_at: '2026-01-01T00:00:00.000000+00:00',
    rating_avg: null,
    rating_count: 0,
    ...overrides,
  };
}

const models: Array<[string, string, string, number]> = [
  ['Renault', 'Clio', 'hatchback', 5],
  ['Dacia', 'Logan', 'sedan', 5],
  ['Peugeot', '208', 'hatchback', 5],
  ['Hyundai', 'Tucson', 'suv', 5],
  ['Toyota', 'Hilux', 'pickup', 4],
  ['Kia', 'Picanto', 'hatchback', 4],
  ['Fiat', '500', 'convertible', 2],
  ['Volkswagen', 'Touran', 'minivan', 7],
];
const featurePool: CarFeature[] = [
  'air_conditioning',
  'gps',
  'sunroof',
  'leather_seats',
  'bluetooth',
  'heated_seats',
  'parking_sensors',
];

/** `count` deterministic cars (a tiny LCG, so runs are comparable). */
export function syntheticCars(count: number, seed = 42): Car[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: count }, (_, i) => {
    const [make, model, body, passengers] = models[i % models.length]!;
    const n = String(i).padStart(5, '0');
    return makeCar({
      id: `10000000-0000-4000-8000-0000000${n}`,
      slug: `${make}-${model}-${n}`.toLowerCase(),
      name: `${make} ${model} ${n}`,
      make,
      model,
      body,
      passengers,
      seats: passengers,
      year: 2015 + Math.floor(random() * 11),
      transmission: random() < 0.5 ? 'automatic' : 'manual',
      features: featurePool.filter(() => random() < 0.45),
      daily_rate_dzd: 3_000 + Math.floor(random() * 60) * 250,
      rating_avg: random() < 0.7 ? Math.round((3 + random() * 2) * 10) / 10 : null,
      rating_count: Math.floor(random() * 40),
      updated_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    });
  });
}
