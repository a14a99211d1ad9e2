/**
 * Shared helpers for API tests about bookings: the seed's fixed ids, clients that look like
 * distinct visitors (their own X-Forwarded-For, so per-IP limits don't leak between tests),
 * fresh cars, booking drafts, uploads and error checks. Everything goes through supabase-js.
 */
import { randomInt, randomUUID } from 'node:crypto';

import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';

import { serviceClient, sql, testStack } from './clients.ts';
import { DEMO_ADMIN_TOTP_SECRET, signInWithFactor } from './mfa.ts';
import { SEED } from './seed.ts';
import { TEST_PASSWORD, checkBookingFiles, nodeClient, uniqueEmail } from './supabase.ts';

// ---------------------------------------------------------------------------------------------
// Row shapes as PostgREST returns them (the app's are src/domain/rows.ts, outside the
// Node type-check project; these hold only what the tests read)
// ---------------------------------------------------------------------------------------------

export type Localized = { fr: string; en: string; ar: string };

export type PriceBreakdown = {
  days: number;
  base: number;
  extras_total: number;
  insurance_total: number;
  driver_total: number;
  pickup_fee: number;
  dropoff_fee: number;
  subtotal: number;
  deposit: number;
  total: number;
  currency: 'DZD';
};

export type Car = {
  id: string;
  slug: string;
  name: string;
  body: string;
  passengers: number;
  transmission: 'automatic' | 'manual';
  features: string[];
  description: Localized;
  year: number;
  daily_rate_dzd: number;
  deposit_dzd: number;
  images: string[];
  rating_avg: number | null;
  rating_count: number;
  active: boolean;
  updated_at: string;
  [column: string]: unknown;
};

export type Booking = {
  id: string;
  reference: string;
  user_id: string | null;
  guest_name: string | null;
  guest_phone: string | null;
  guest_email: string | null;
  car_id: string;
  start_at: string;
  end_at: string;
  license_path: string;
  flight_document_path: string | null;
  price: PriceBreakdown;
  total_dzd: number;
  status: string;
  status_reason: string | null;
  locale: 'fr' | 'en' | 'ar';
  confirm_by: string | null;
  contact_confirmed_at: string | null;
  /** Whether the latest confirmation code went into the outbox (guest bookings; public projection). */
  code_mail_sent?: boolean | null;
  updated_at: string;
  [column: string]: unknown;
};

export type Notification = {
  id: string;
  user_id: string;
  booking_id: string | null;
  type: string;
  is_read: boolean;
  created_at: string;
  updated_at: string;
};

// Seed data (supabase/seed.sql): tests/support/seed.ts, which the benches read too.
export { SEED };

export const DEMO_PASSWORD = 'Kiraa2026!';
export const DEMO_CUSTOMER_EMAIL = 'client@kiraa.dz';
export const DEMO_ADMIN_EMAIL = 'admin@kiraa.dz';

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

/** A random private (10/8) address: one per simulated visitor. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** A client of `stack` (the run's by default) with the anon key, sending `headers`. */
export function apiClient(
  headers: Record<string, string>,
  stack: { apiUrl: string; anonKey: string } = testStack(),
): SupabaseClient {
  return nodeClient(stack.apiUrl, stack.anonKey, headers);
}

/** A signed-out visitor (anon key) calling from `ip`. */
export function visitor(ip: string = randomIp()): SupabaseClient {
  return apiClient({ 'x-forwarded-for': ip });
}

export type Customer = { client: SupabaseClient; id: string; email: string };

/** A new customer: signs up (with a valid profile) from their own address and stays signed in. */
export async function newCustomer(
  metadata: Record<string, unknown> = {
    name: 'Lina Bouzid',
    phone: '+213555000111',
    age: 30,
    address: '1 rue Didouche Mourad, Alger',
  },
): Promise<Customer> {
  const client = visitor();
  const email = uniqueEmail('customer');
  const { data, error } = await client.auth.signUp({
    email,
    password: TEST_PASSWORD,
    options: { data: metadata },
  });
  if (error) throw error;
  if (!data.user || !data.session) throw new Error(`Sign-up of ${email} returned no session.`);
  return { client, id: data.user.id, email };
}

/**
 * A client signed in with email and password; the demo admin also passes the second factor
 * (staff act only at aal2: docs/auth.md), unless `aal1` is asked for.
 */
export async function signedIn(
  email: string,
  password: string,
  { aal1 = false }: { aal1?: boolean } = {},
): Promise<SupabaseClient> {
  const client = visitor();
  const secret = email === DEMO_ADMIN_EMAIL && !aal1 ? DEMO_ADMIN_TOTP_SECRET : null;
  await signInWithFactor(client, email, password, secret);
  return client;
}

let staff: Promise<SupabaseClient> | null = null;

/** The seed's demo admin at aal2, signed in once per test file. */
export function adminClient(): Promise<SupabaseClient> {
  staff ??= signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
  return staff;
}

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/** A car of its own for a test (so bookings never collide with other tests), added by staff. */
export async function newCar(overrides: Partial<Car> = {}): Promise<Car> {
  const admin = await adminClient();
  const slug = `test-car-${randomUUID().slice(0, 8)}`;
  const { data, error } = await admin
    .from('cars')
    .insert({
      slug,
      name: 'Renault Clio 5',
      make: 'Renault',
      model: 'Clio',
      body: 'hatchback',
      seats: 5,
      doors: 5,
      passengers: 5,
      fuel: 'diesel',
      year: 2024,
      transmission: 'manual',
      drive: 'fwd',
      engine: '1.5 Blue dCi 85 ch',
      mileage_km: 1000,
      exterior_color: 'white',
      interior_color: 'black',
      features: ['air_conditioning'],
      description: { fr: 'Voiture de test', en: 'Test car', ar: 'سيارة اختبار' },
      daily_rate_dzd: 5000,
      deposit_dzd: 40000,
      images: [],
      ...overrides,
    })
    .select()
    .single();
  if (error) throw error;
  return data as Car;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random booking reference (KR-XXXX-XXXX). */
export function newReference(): string {
  const chars = Array.from({ length: 8 }, () => CROCKFORD[randomInt(32)]).join('');
  return `KR-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** An instant `days` days from now at `hour`:`minute` Algiers time, as ISO 8601 with +01:00. */
export function algiersAt(days: number, hour = 10, minute = 0): string {
  const algiersNow = new Date(Date.now() + 60 * 60 * 1000);
  const d = new Date(
    Date.UTC(
      algiersNow.getUTCFullYear(),
      algiersNow.getUTCMonth(),
      algiersNow.getUTCDate() + days,
      hour,
      minute,
    ),
  );
  return `${d.toISOString().slice(0, 16)}:00+01:00`;
}

/** A 1×1 PNG: real image bytes, as the storage API checks them. */
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export function pngBlob(): Blob {
  return new Blob([PNG_BYTES], { type: 'image/png' });
}

/** Uploads a picture to `{bookingId}/{name}` of `bucket`; returns the path (throws on refusal). */
export async function uploadBookingFile(
  client: SupabaseClient,
  bookingId: string,
  bucket: 'licenses' | 'flight-documents' = 'licenses',
  name = 'permis.png',
): Promise<string> {
  const path = `${bookingId}/${name}`;
  const { error } = await client.storage
    .from(bucket)
    .upload(path, pngBlob(), { contentType: 'image/png' });
  if (error) throw new Error(`upload to ${bucket}/${path} refused: ${error.message}`);
  return path;
}

export type BookingPayload = {
  id: string;
  reference: string;
  car_id: string;
  start_at: string;
  end_at: string;
  pickup_location_id: string;
  dropoff_location_id: string;
  driver_option: string;
  license_path: string;
  from_abroad: boolean;
  flight_document_path?: string | null;
  additional_requests?: string | null;
  extras: string[];
  insurance: string[];
  guest_name?: string;
  guest_phone?: string;
  guest_email?: string;
  [key: string]: unknown;
};

/**
 * The contact a guest gives: a unique email and phone per call (the server limits pending
 * bookings per contact), the phone written with spaces as people type it.
 */
export function guestContact() {
  const digits = String(randomInt(10_000_000, 100_000_000));
  return {
    guest_name: 'Sofiane Belkacem',
    guest_phone: `+213 5${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 6)} ${digits.slice(6)}`,
    guest_email: uniqueEmail('guest'),
  };
}

/** A complete, valid payload for `car` (no upload done: see `bookingWithLicence`). */
export function draft(carId: string, overrides: Partial<BookingPayload> = {}): BookingPayload {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    reference: newReference(),
    car_id: carId,
    start_at: algiersAt(10, 10),
    end_at: algiersAt(13, 10),
    pickup_location_id: SEED.locations.alg,
    dropoff_location_id: SEED.locations.alg,
    driver_option: 'self',
    license_path: `${id}/permis.png`,
    from_abroad: false,
    extras: [],
    insurance: ['civil_liability'],
    ...overrides,
  };
}

/** Uploads the licence for a new draft and returns the payload ready for create_booking. */
export async function bookingWithLicence(
  client: SupabaseClient,
  carId: string,
  overrides: Partial<BookingPayload> = {},
  signedIn = false,
): Promise<BookingPayload> {
  const payload = draft(carId, { ...(signedIn ? {} : guestContact()), ...overrides });
  await uploadBookingFile(client, payload.id, 'licenses', payload.license_path.split('/')[1]);
  return payload;
}

export type RpcResult<T> = { data: T | null; error: PostgrestError | null };

export async function createBooking(
  client: SupabaseClient,
  payload: Record<string, unknown>,
): Promise<RpcResult<Booking>> {
  const { data, error } = await client.rpc('create_booking', { p: payload });
  return { data: data as Booking | null, error };
}

/**
 * A known confirmation code, set on a guest booking by `confirmContact` (as the database owner,
 * through the same hash function create_booking uses), so tests confirm through the real
 * `confirm_guest_booking` without waiting for the mail relay. tests/api/guest-confirmation.test.ts
 * reads the real code from the dev mailbox.
 */
export const TEST_CONFIRMATION_CODE = '24681357';

/** Confirms a guest booking's contact through `confirm_guest_booking` (see above). */
export async function confirmContact(booking: { id: string; reference: string }): Promise<void> {
  await sql(
    `update internal.guest_confirmations
        set code_hash = internal.confirmation_code_hash($1, $2)
      where booking_id = $1`,
    [booking.id, TEST_CONFIRMATION_CODE],
  );
  const { data, error } = await visitor().rpc('confirm_guest_booking', {
    reference: booking.reference,
    code: TEST_CONFIRMATION_CODE,
  });
  if (error || !(data as { confirmed?: boolean } | null)?.confirmed) {
    throw new Error(
      `confirm_guest_booking refused: ${error?.message ?? JSON.stringify(data)} (${booking.reference})`,
    );
  }
}

/** The keys of a booking's public projection (what create_booking answers anyone). */
export const PUBLIC_BOOKING_KEYS = [
  'car_id',
  'code_mail_sent',
  'confirm_by',
  'contact_confirmed_at',
  'created_at',
  'driver_option',
  'dropoff_location_id',
  'end_at',
  'extras',
  'from_abroad',
  'id',
  'insurance',
  'locale',
  'payment_method',
  'payment_status',
  'pickup_location_id',
  'price',
  'reference',
  'start_at',
  'status',
  'status_reason',
  'total_dzd',
  'updated_at',
  'user_id',
];

/** `row` with only `keys`. */
export function pick<T extends object>(row: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(
    Object.entries(row).filter(([key]) => keys.includes(key)),
  ) as Partial<T>;
}

/** The stored row as staff read it (create_booking answers with the public projection only). */
export async function storedBooking(id: string): Promise<Booking> {
  const { data, error } = await serviceClient().from('bookings').select('*').eq('id', id).single();
  if (error) throw new Error(`booking ${id}: ${error.message}`);
  // As the RPCs return rows: without the generated range.
  const { period: _period, ...row } = data as Booking & { period?: unknown };
  return row as Booking;
}

/**
 * Creates a booking that must succeed (licence uploaded first) and returns the stored row. A
 * guest's contact is then confirmed, as the guest does with the mailed code, so staff can accept
 * it; `{ confirm: false }` leaves it unconfirmed (holding its car until `confirm_by`).
 */
export async function book(
  client: SupabaseClient,
  carId: string,
  overrides: Partial<BookingPayload> = {},
  signedIn = false,
  { confirm = true }: { confirm?: boolean } = {},
): Promise<Booking> {
  const payload = await bookingWithLicence(client, carId, overrides, signedIn);
  const { data, error } = await createBooking(client, payload);
  if (error) throw new Error(`create_booking refused: ${error.message} (${error.details})`);
  const created = data as Booking;
  if (created.user_id === null && confirm) await confirmContact(created);
  return storedBooking(created.id);
}

/** Moves a booking through staff transitions, e.g. ['reserved', 'in_progress', 'completed']. */
export async function staffMoves(bookingId: string, statuses: string[]): Promise<Booking> {
  const admin = await adminClient();
  let last: Booking | null = null;
  for (const status of statuses) {
    // Staff accept once the files are checked (check-upload, started by the upload's webhook).
    if (status === 'reserved') await checkBookingFiles(testStack(), bookingId);
    const { data, error } = await admin.rpc('staff_set_booking_status', {
      booking_id: bookingId,
      status,
      reason: status === 'rejected' ? 'Véhicule en maintenance' : null,
    });
    if (error) throw new Error(`staff_set_booking_status(${status}) refused: ${error.message}`);
    last = data as Booking;
  }
  return last as Booking;
}

/** Asserts a refusal with one of our stable codes (SQLSTATE P0001, the code as the message). */
export function expectCode(error: PostgrestError | null, code: string): void {
  expect(error, `expected the call to be refused with ${code}`).not.toBeNull();
  expect({ code: error?.code, message: error?.message }).toEqual({ code: 'P0001', message: code });
}

/** Asserts a refusal by privileges or row-level security (SQLSTATE 42501). */
export function expectDenied(error: PostgrestError | null): void {
  expect(error, 'expected a permission error').not.toBeNull();
  expect(error?.code).toBe('42501');
}
