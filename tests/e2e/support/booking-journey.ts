/**
 * A traveller's booking journey in the browser, shared by the specs: a car and dates for one
 * journey, a guest's contact, a device primed online (service worker and catalogue), the five
 * steps as a guest, and the server's rows read with the service key.
 */
import { randomInt, randomUUID } from 'node:crypto';

import type { Page } from '@playwright/test';

import { apiClient, waitForMail } from './accounts';
import type { E2eEnv } from './env';
import { expect } from './fixtures';
import { workerInControl } from './worker.ts';

/** A small but real PDF (the storage server checks the bytes). */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export type Row = Record<string, unknown>;

export async function rest(e2e: E2eEnv, path: string): Promise<Row[]> {
  const response = await fetch(`${e2e.apiUrl}/rest/v1/${path}`, {
    headers: { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Row[];
}

/** YYYY-MM-DD in Algiers, `days` from today. */
export function algiersDay(days: number): string {
  const algiersNow = Date.now() + 60 * 60 * 1000;
  return new Date(algiersNow + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Two days on either side of a journey's dates: nothing of its car may come within them. */
const MARGIN_MS = 2 * 24 * 60 * 60 * 1000;

/** Whether no booking (of any status) and no block of `carId` comes within two days of the dates. */
async function nothingNear(e2e: E2eEnv, carId: string, start: string, end: string) {
  const from = new Date(Date.parse(`${start}:00+01:00`) - MARGIN_MS).toISOString();
  const to = new Date(Date.parse(`${end}:00+01:00`) + MARGIN_MS).toISOString();
  const near = `car_id=eq.${carId}&period=ov.${encodeURIComponent(`[${from},${to})`)}`;
  const [bookings, blocks] = await Promise.all([
    rest(e2e, `bookings?${near}&select=id`),
    rest(e2e, `car_blocks?${near}&select=id`),
  ]);
  return bookings.length === 0 && blocks.length === 0;
}

/**
 * A car, dates and a pickup place for one journey: dates nothing on the server comes near on that
 * car (random dates alone could fall on the seed's taken ones or on another test's booking of it,
 * and the journey would be refused for a reason the test is not about).
 */
export async function pickRental(e2e: E2eEnv, carIndex?: number) {
  const cars = await rest(e2e, 'cars?active=is.true&select=id,name&order=id');
  const locations = await rest(e2e, 'locations?active=is.true&kind=eq.city&select=id&order=id');
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    const car = cars[carIndex ?? randomInt(cars.length)]!;
    // Within the booking horizon (settings.booking_horizon_days, 365): a start at most a year out.
    // City places are closed on Friday (docs/opening-hours.md): neither day is one.
    let day = 30 + randomInt(320);
    const friday = (d: number) => new Date(`${algiersDay(d)}T12:00:00Z`).getUTCDay() === 5;
    while (friday(day) || friday(day + 2)) day += 1;
    const rental = {
      carId: String(car.id),
      carName: String(car.name),
      start: `${algiersDay(day)}T10:00`,
      end: `${algiersDay(day + 2)}T10:00`,
      pickupId: String(locations[0]!.id),
    };
    if (await nothingNear(e2e, rental.carId, rental.start, rental.end)) return rental;
  }
  throw new Error('no free car and dates found for a journey');
}

export type Rental = Awaited<ReturnType<typeof pickRental>>;

/** Other dates on `rental`'s car that nothing on the server comes near (see pickRental). */
export async function freeDatesOnCar(e2e: E2eEnv, rental: Rental): Promise<Rental> {
  const cars = await rest(e2e, 'cars?active=is.true&select=id&order=id');
  const index = cars.findIndex((car) => String(car.id) === rental.carId);
  if (index < 0) throw new Error(`car ${rental.carId} is not in the active fleet`);
  return pickRental(e2e, index);
}

export function guest(tag: string) {
  return {
    name: `Amina ${tag}`,
    phone: `+2135${String(randomInt(10_000_000, 99_999_999))}`,
    email: `guest-${tag}-${randomUUID().slice(0, 8)}@kiraa.test`,
  };
}

/** Opens the app online once: the service worker installs and IndexedDB gets the catalogue. */
export async function primeDevice(page: Page) {
  await page.goto('/cars');
  await expect(page.getByTestId('car-link').first()).toBeVisible({ timeout: 30_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await workerInControl(page);
  // The catalogue sync also keeps the pricing settings (driver per day) for offline prices.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open('kiraa');
            open.onsuccess = () => {
              const get = open.result
                .transaction('meta')
                .objectStore('meta')
                .get('catalogue.settings');
              get.onsuccess = () => resolve(!!get.result);
              get.onerror = () => resolve(false);
            };
            open.onerror = () => resolve(false);
          }),
      ),
    )
    .toBe(true);
}

/** The wizard's labels bookAsGuest uses (French by default; Arabic for RTL journeys). */
export type WizardLabels = {
  pickup: string;
  selfDrive: string;
  name: string;
  phone: string;
  email: string;
  /** Runs once the contact is typed, before step 4 is left. */
  afterContact?: () => Promise<void>;
};

export const FRENCH_LABELS: WizardLabels = {
  pickup: 'Lieu de prise en charge',
  selfDrive: 'Je conduis moi-même',
  name: 'Nom complet',
  phone: 'Numéro de téléphone',
  email: 'Adresse e-mail',
};

export const ARABIC_LABELS: WizardLabels = {
  pickup: 'مكان الاستلام',
  selfDrive: 'سأقود بنفسي',
  name: 'الاسم الكامل',
  phone: 'رقم الهاتف',
  email: 'عنوان البريد الإلكتروني',
};

/** Goes through the five steps as a guest and confirms; returns the reference shown at once. */
export async function bookAsGuest(
  page: Page,
  rental: Rental,
  contact: ReturnType<typeof guest>,
  beforeConfirm?: () => Promise<void>,
  labels: WizardLabels = FRENCH_LABELS,
): Promise<{ reference: string; bookingId: string }> {
  await page.goto(`/cars/book?car=${rental.carId}&start=${rental.start}&end=${rental.end}`);
  await expect(page.getByTestId('wizard-step')).toContainText('1');
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-step')).toContainText('2');
  await expect(page.getByTestId('price-total')).toBeVisible();
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-step')).toContainText('3');
  await page.getByLabel(labels.pickup).selectOption(rental.pickupId);
  await page.getByLabel(labels.selfDrive).check();
  await page
    .getByTestId('licence-input')
    .setInputFiles({ name: 'permis.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('licence-input-name')).toContainText('permis.pdf');
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-step')).toContainText('4');
  await page.getByLabel(labels.name).fill(contact.name);
  await page.getByLabel(labels.phone).fill(contact.phone);
  await page.getByLabel(labels.email).fill(contact.email);
  await labels.afterContact?.();
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-step')).toContainText('5');
  await page.getByTestId('accept-guarantee').check();
  await beforeConfirm?.();
  await page.getByTestId('wizard-confirm').click();

  await expect(page).toHaveURL(/\/booking-success\?id=/);
  const reference = (await page.getByTestId('booking-reference').textContent())?.trim() ?? '';
  expect(reference).toMatch(/^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  const bookingId = new URL(page.url()).searchParams.get('id') ?? '';
  return { reference, bookingId };
}

/**
 * The guest of `reference` types the code of their confirmation mail (as from another device):
 * from then on the booking holds its car. An unconfirmed booking holds none (docs/decisions.md,
 * "Who may hold the fleet").
 */
export async function confirmByMail(email: string, reference: string): Promise<void> {
  const mail = await waitForMail(
    email,
    20_000,
    (m) => m.subject.includes(reference) && /\b\d{8}\b/.test(m.text),
  );
  const code = /(?:Code de confirmation :|Confirmation code:|رمز التأكيد:) (\d{8})/.exec(
    mail.text,
  )?.[1];
  expect(code, mail.text).toBeTruthy();
  const { data, error } = await apiClient().rpc('confirm_guest_booking', { reference, code });
  expect(error).toBeNull();
  expect(data).toMatchObject({ confirmed: true });
}
