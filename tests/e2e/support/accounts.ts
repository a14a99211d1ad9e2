/**
 * Helpers of the account and notification journeys (tests/e2e/auth.spec.ts,
 * notifications.spec.ts): supabase-js clients of the e2e stack, fresh customers, a booking of
 * their own, staff moves and the dev mailbox's JSON API.
 */
import { randomInt, randomUUID } from 'node:crypto';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import { DEMO_ADMIN_TOTP_SECRET, signInWithFactor } from '../../support/mfa.ts';
import { waitForFileChecks } from '../../support/supabase.ts';
import { readE2eEnv } from './env.ts';
import { DEMO_ADMIN } from './session.ts';

/** Node 20 has no WebSocket and the local stack no Realtime: a transport that never connects. */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

/** A signed-out API client from its own address (per-IP limits never leak between tests). */
export function apiClient(): SupabaseClient {
  const env = readE2eEnv();
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  return createClient(env.apiUrl, env.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': ip } },
    realtime: { transport: NoRealtime as never },
  });
}

/** A signed-in client; the demo admin also passes the second factor (staff act at aal2). */
export async function signedInClient(email: string, password: string): Promise<SupabaseClient> {
  const client = apiClient();
  const secret = email === DEMO_ADMIN.email ? DEMO_ADMIN_TOTP_SECRET : null;
  try {
    await signInWithFactor(client, email, password, secret);
  } catch (error) {
    throw new Error(`sign-in of ${email} refused: ${(error as Error).message}`);
  }
  return client;
}

export const CUSTOMER_PASSWORD = 'Kiraa2026!';

/** A unique address per call, so tests never share an account. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${randomUUID().slice(0, 8)}@example.dz`;
}

export type Customer = {
  client: SupabaseClient;
  id: string;
  email: string;
  password: string;
  name: string;
};

/** A new customer signed up through the API (email confirmation is off locally). */
export async function newCustomer(name = 'Lina Bouzid'): Promise<Customer> {
  const client = apiClient();
  const email = uniqueEmail('customer');
  const { data, error } = await client.auth.signUp({
    email,
    password: CUSTOMER_PASSWORD,
    options: { data: { name, phone: '+213555000111', age: 30, address: '1 rue Didouche, Alger' } },
  });
  if (error || !data.user || !data.session) {
    throw new Error(`sign-up of ${email} failed: ${error?.message ?? 'no session'}`);
  }
  return { client, id: data.user.id, email, password: CUSTOMER_PASSWORD, name };
}

/**
 * An instant `days` days from now at 10:00 Algiers time, ISO 8601 with its offset: inside every
 * place's opening hours whatever the hour the test runs (docs/opening-hours.md).
 */
export function algiersAt(days: number): string {
  const now = new Date(Date.now() + 60 * 60 * 1000);
  const d = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, 10),
  );
  return `${d.toISOString().slice(0, 16)}:00+01:00`;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A pending booking of `customer` on a car of its own (added by the demo admin, so no other test
 * can take its dates): licence uploaded, then `create_booking`.
 */
export async function newPendingBooking(customer: Customer): Promise<{ id: string }> {
  const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const { data: car, error: carError } = await admin
    .from('cars')
    .insert({
      slug: `e2e-car-${randomUUID().slice(0, 8)}`,
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
      engine: '1.5 dCi',
      mileage_km: 1000,
      exterior_color: 'white',
      interior_color: 'black',
      features: ['air_conditioning'],
      description: { fr: 'Voiture de test', en: 'Test car', ar: 'سيارة اختبار' },
      daily_rate_dzd: 5000,
      deposit_dzd: 40000,
      images: [],
    })
    .select('id')
    .single();
  if (carError) throw new Error(`car insert refused: ${carError.message}`);
  const { data: location, error: locationError } = await customer.client
    .from('locations')
    .select('id')
    .eq('active', true)
    // Open every day 06:00–23:00 (docs/opening-hours.md): any test date and 10:00 fit.
    .eq('kind', 'airport')
    .limit(1)
    .single();
  if (locationError) throw new Error(`no location: ${locationError.message}`);

  const id = randomUUID();
  const path = `${id}/permis.png`;
  const { error: uploadError } = await customer.client.storage
    .from('licenses')
    .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
  if (uploadError) throw new Error(`licence upload refused: ${uploadError.message}`);
  const chars = Array.from({ length: 8 }, () => CROCKFORD[randomInt(32)]).join('');
  const { error } = await customer.client.rpc('create_booking', {
    p: {
      id,
      reference: `KR-${chars.slice(0, 4)}-${chars.slice(4)}`,
      car_id: (car as { id: string }).id,
      start_at: algiersAt(10),
      end_at: algiersAt(12),
      pickup_location_id: (location as { id: string }).id,
      dropoff_location_id: (location as { id: string }).id,
      driver_option: 'self',
      license_path: path,
      from_abroad: false,
      extras: [],
      insurance: ['civil_liability'],
    },
  });
  if (error) throw new Error(`create_booking refused: ${error.message} (${error.details})`);
  // Its licence checked (check-upload, by the upload's webhook), as staff find a booking a
  // moment after it was made.
  await waitForFileChecks(readE2eEnv().dbUrl, id);
  return { id };
}

/**
 * A wave: `count` guest bookings made from one client address with one private mail domain (a
 * catch-all domain, say), on a car of their own, none confirmed. Returns where they came from.
 */
export async function newGuestWave(
  count: number,
): Promise<{ domain: string; address: string; references: string[] }> {
  const env = readE2eEnv();
  const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const { data: car, error: carError } = await admin
    .from('cars')
    .insert({
      slug: `e2e-wave-${randomUUID().slice(0, 8)}`,
      name: 'Dacia Logan',
      make: 'Dacia',
      model: 'Logan',
      body: 'sedan',
      seats: 5,
      doors: 4,
      passengers: 5,
      fuel: 'diesel',
      year: 2023,
      transmission: 'manual',
      drive: 'fwd',
      engine: '1.5 dCi',
      mileage_km: 1000,
      exterior_color: 'white',
      interior_color: 'black',
      features: [],
      description: { fr: 'Voiture de test', en: 'Test car', ar: 'سيارة اختبار' },
      daily_rate_dzd: 4000,
      deposit_dzd: 30000,
      images: [],
    })
    .select('id')
    .single();
  if (carError) throw new Error(`car insert refused: ${carError.message}`);
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const domain = `wave-${randomUUID().slice(0, 6)}.test`;
  const guest = createClient(env.apiUrl, env.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': address } },
    realtime: { transport: NoRealtime as never },
  });
  const { data: location } = await guest
    .from('locations')
    .select('id')
    .eq('kind', 'airport')
    .limit(1)
    .single();
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const path = `${id}/permis.png`;
    const upload = await guest.storage
      .from('licenses')
      .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
    if (upload.error) throw new Error(`licence upload refused: ${upload.error.message}`);
    const chars = Array.from({ length: 8 }, () => CROCKFORD[randomInt(32)]).join('');
    const reference = `KR-${chars.slice(0, 4)}-${chars.slice(4)}`;
    const { error } = await guest.rpc('create_booking', {
      p: {
        id,
        reference,
        car_id: (car as { id: string }).id,
        start_at: algiersAt(20),
        end_at: algiersAt(22),
        pickup_location_id: (location as { id: string }).id,
        dropoff_location_id: (location as { id: string }).id,
        driver_option: 'self',
        license_path: path,
        from_abroad: false,
        extras: [],
        insurance: ['civil_liability'],
        guest_name: 'Test Vague',
        guest_phone: `+2135550${String(randomInt(100000, 999999))}`,
        guest_email: `w${i}@${domain}`,
      },
    });
    if (error) throw new Error(`create_booking refused: ${error.message} (${error.details})`);
    references.push(reference);
  }
  return { domain, address, references };
}

/** A staff status change as the demo admin (writes the customer's notification). */
export async function staffSetStatus(bookingId: string, status: string): Promise<void> {
  // Staff accept once the files are checked (check-upload, started by the upload's webhook).
  if (status === 'reserved') await waitForFileChecks(readE2eEnv().dbUrl, bookingId);
  const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const { error } = await admin.rpc('staff_set_booking_status', {
    booking_id: bookingId,
    status,
    reason: status === 'rejected' || status === 'cancelled' ? 'Véhicule en maintenance' : null,
  });
  if (error) throw new Error(`staff_set_booking_status(${status}) refused: ${error.message}`);
}

export type Mail = { to: string; subject: string; text: string };

/**
 * The newest mail sent to `to` (the mailbox lists newest first) that `match` accepts, waiting up
 * to `timeoutMs`.
 */
export async function waitForMail(
  to: string,
  timeoutMs = 15_000,
  match: (mail: Mail) => boolean = () => true,
): Promise<Mail> {
  const { mailboxUrl } = readE2eEnv();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
    const mails = (await response.json()) as Mail[];
    const mail = mails.find(match);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail for ${to} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
