/**
 * Every length and size limit the app and the database both enforce, once for TypeScript. The
 * database reads the same numbers from `internal.app_limit(name)` (its constraints and functions
 * call it), and tests/api/limits.test.ts holds the two equal: for each limit, the maximum is
 * accepted and one past it refused, by SQL and by the zod schemas (docs/database.md, "Where a
 * rule lives").
 */
export const LIMITS = {
  /** A person's name: the profile's full name, a guest's name (characters, trimmed). */
  name: 100,
  /** A postal address on the profile. */
  address: 200,
  /** An e-mail address (RFC 5321's path limit). */
  email: 254,
  /** The youngest and oldest age a profile may give. */
  ageMin: 18,
  ageMax: 120,
  /** A free text: a booking's additional requests, a staff member's reason. */
  text: 500,
  /** The longest rental, in days (`rental_too_long`). */
  rentalDays: 90,
  /** A booking file (licence, flight document) or car photo, in bytes (the buckets' limit). */
  uploadBytes: 5 * 1024 * 1024,
  /** Why staff block a car (a blocked period's reason). */
  blockReason: 300,
  /** Closed dates of one place (`locations.closed_dates`, docs/opening-hours.md). */
  closedDates: 366,
  /** One catalogue price staff set, in DZD: a delivery fee, an extra, insurance or driver per day. */
  priceDzd: 1_000_000,
  /** A car's pictures (`cars.images`, staff_set_car_pictures, docs/fleet.md, "Pictures"). */
  carPictures: 12,
  /** Kilometres on a car's odometer: its mileage in the fleet, a pickup's or return's reading. */
  odometerKm: 2_000_000,
  /** An amount a car or a rental carries, in DZD: a car's daily rate and deposit, a deposit held or kept. */
  amountDzd: 10_000_000,
  /** Damage marks on one pickup or return record (docs/handovers.md). */
  damageMarks: 30,
  /** One damage mark's note (characters). */
  damageNote: 200,
} as const;

export type LimitName = keyof typeof LIMITS;

/** The name of each limit in SQL (`internal.app_limit(name)`). */
export const SQL_LIMIT_NAMES: Record<LimitName, string> = {
  name: 'name',
  address: 'address',
  email: 'email',
  ageMin: 'age_min',
  ageMax: 'age_max',
  text: 'text',
  rentalDays: 'rental_days',
  uploadBytes: 'upload_bytes',
  blockReason: 'block_reason',
  closedDates: 'closed_dates',
  priceDzd: 'price_dzd',
  carPictures: 'car_pictures',
  odometerKm: 'odometer_km',
  amountDzd: 'amount_dzd',
  damageMarks: 'damage_marks',
  damageNote: 'damage_note',
};
