/**
 * The fleet form's model (docs/fleet.md, "Fleet"): a car row as the form edits it, the checks the
 * database makes again (the CHECK constraints of public.cars), and the row sent.
 */
import { LIMITS } from '@/domain/limits';
import type { Car, CarFeature } from '@/domain/rows';

export const BODIES = ['city', 'hatchback', 'sedan', 'suv', 'pickup', 'van'] as const;
export const FUELS = ['petrol', 'diesel', 'hybrid', 'electric', 'lpg'] as const;
export const DRIVES = ['fwd', 'rwd', 'awd', '4wd'] as const;
export const TRANSMISSIONS = ['automatic', 'manual'] as const;
export const EXTERIOR_COLORS = [
  'white',
  'black',
  'silver',
  'grey',
  'red',
  'blue',
  'green',
  'beige',
  'brown',
  'orange',
  'yellow',
] as const;
export const INTERIOR_COLORS = ['black', 'grey', 'beige', 'brown', 'red'] as const;
export const FEATURES: readonly CarFeature[] = [
  'air_conditioning',
  'bluetooth',
  'gps',
  'parking_sensors',
  'sunroof',
  'heated_seats',
  'leather_seats',
];

/** A car as staff read and write it: the catalogue's row without what the server derives. */
export type FleetCar = Omit<Car, 'updated_at' | 'rating_avg' | 'rating_count'>;

export type CarForm = Omit<FleetCar, 'id' | 'slug' | 'active' | 'images'>;

export type CarField = keyof CarForm | 'description.fr' | 'description.en' | 'description.ar';

/** Why a field is refused (the page words it). */
export type FieldProblem = 'required' | 'too_long' | 'out_of_range';

export function emptyCarForm(year: number): CarForm {
  return {
    name: '',
    make: '',
    model: '',
    body: 'sedan',
    seats: 5,
    doors: 4,
    passengers: 5,
    fuel: 'diesel',
    year,
    transmission: 'manual',
    drive: 'fwd',
    engine: '',
    mileage_km: 0,
    exterior_color: 'white',
    interior_color: 'black',
    features: ['air_conditioning'],
    description: { fr: '', en: '', ar: '' },
    daily_rate_dzd: 5000,
    deposit_dzd: 40000,
  };
}

export function carToForm(car: FleetCar): CarForm {
  const { id: _id, slug: _slug, active: _active, images: _images, ...form } = car;
  return { ...form, description: { ...car.description } };
}

const textLimits: [keyof CarForm, number][] = [
  ['name', 80],
  ['make', 40],
  ['model', 40],
  ['engine', 60],
];
const ranges: [keyof CarForm, number, number][] = [
  ['seats', 1, 9],
  ['doors', 2, 5],
  ['passengers', 1, 9],
  ['year', 1990, 2100],
  ['mileage_km', 0, LIMITS.odometerKm],
  ['daily_rate_dzd', 1, LIMITS.amountDzd],
  ['deposit_dzd', 0, LIMITS.amountDzd],
];

/** The same rules as the table's CHECKs; an empty result means the row can be sent. */
export function carFormProblems(form: CarForm): Partial<Record<CarField, FieldProblem>> {
  const problems: Partial<Record<CarField, FieldProblem>> = {};
  for (const [field, max] of textLimits) {
    const value = String(form[field]).trim();
    if (!value) problems[field] = 'required';
    else if (value.length > max) problems[field] = 'too_long';
  }
  for (const [field, min, max] of ranges) {
    const value = form[field] as number;
    if (!Number.isInteger(value) || value < min || value > max) problems[field] = 'out_of_range';
  }
  for (const lang of ['fr', 'en', 'ar'] as const) {
    const value = form.description[lang].trim();
    if (!value) problems[`description.${lang}`] = 'required';
    else if (value.length > 2000) problems[`description.${lang}`] = 'too_long';
  }
  return problems;
}

/** A URL name for a new car: its name in ASCII words, and a random tail so it is unique. */
export function slugFor(name: string, tail: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return words ? `${words}-${tail}` : `car-${tail}`;
}

/** The row sent to PostgREST (trimmed texts). */
export function formToRow(form: CarForm): CarForm {
  return {
    ...form,
    name: form.name.trim(),
    make: form.make.trim(),
    model: form.model.trim(),
    engine: form.engine.trim(),
    description: {
      fr: form.description.fr.trim(),
      en: form.description.en.trim(),
      ar: form.description.ar.trim(),
    },
  };
}
