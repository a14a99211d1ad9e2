/**
 * Every promise on screen kept (issue 20), end to end (real Chromium, the production build, the
 * real stack): a guest whose code mail could not be sent is told so and offered the agency, and
 * staff confirm the contact or extend the deadline from the board; invisible marks pasted into
 * the wizard are cleaned before confirming, so the server accepts what was typed; a booking that
 * will not happen offers no calendar or sharing; "Bookings made on this device" lists only those.
 */
import pg from 'pg';
import type { Browser, Page } from '@playwright/test';

import { apiClient, signedInClient } from './support/accounts';
import {
  ARABIC_LABELS,
  bookAsGuest,
  FRENCH_LABELS,
  freeDatesOnCar,
  guest,
  PDF,
  pickRental,
  primeDevice,
  rest,
  type Rental,
} from './support/booking-journey';
import type { E2eEnv } from './support/env';
import { expect, test } from './support/fixtures';
import { DEMO_ADMIN, signInStaffThroughUi } from './support/session';

async function sql(e2e: E2eEnv, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: e2e.dbUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** The address already had its hour's share of code mails (8): the next one is dropped. */
async function spendCodeBudget(e2e: E2eEnv, email: string): Promise<void> {
  await sql(
    e2e,
    `insert into internal.mail_outbox (to_email, subject, body_text, kind, locale, sent_at)
     select $1, 'code', 'code', 'guest_confirmation', 'fr', now() from generate_series(1, 8)`,
    [email],
  );
}

async function adminPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'fr-FR', timezoneId: 'UTC' });
  const page = await context.newPage();
  await signInStaffThroughUi(page);
  return page;
}

async function serverRow(e2e: E2eEnv, reference: string) {
  const rows = await rest(
    e2e,
    `bookings?reference=eq.${reference}&select=id,status,guest_name,guest_phone,guest_email,contact_confirmed_at,confirm_by`,
  );
  return rows[0]!;
}

test.describe('a code that could not be sent', () => {
  test('the guest is told plainly and offered the agency (call, WhatsApp with the reference); staff confirm the contact from the board', async ({
    page,
    browser,
    e2e,
  }) => {
    test.setTimeout(180_000);
    const rental = await pickRental(e2e);
    const contact = guest('nocode');
    await spendCodeBudget(e2e, contact.email);
    await primeDevice(page);
    const { reference } = await bookAsGuest(page, rental, contact);
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    const help = page.getByTestId('agency-help');
    await expect(help).toHaveAttribute('data-reason', 'not_sent');
    await expect(help).toContainText('n’a pas pu être envoyé');
    await expect(help.getByTestId('agency-call')).toHaveAttribute('href', /^tel:\+213/);
    const whatsapp = await help.getByTestId('agency-whatsapp').getAttribute('href');
    expect(decodeURIComponent(whatsapp ?? '')).toContain(reference);

    // A new code: refused for the same reason, said once, the agency still offered.
    await page.getByRole('button', { name: 'Recevoir un nouveau code' }).click();
    await expect(page.getByTestId('resend-refused')).toHaveAttribute(
      'data-reason',
      'mail_rate_limited',
    );
    await expect(page.getByTestId('agency-help')).toHaveCount(1);

    // Staff, after a call, extend the deadline then confirm the contact from the board.
    const admin = await adminPage(browser, e2e.appUrl);
    await admin.getByTestId('staff-search').fill(reference);
    const card = admin.locator(`[data-testid="staff-booking"][data-reference="${reference}"]`);
    await expect(card.getByTestId('staff-status')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
    );
    await expect(card.getByTestId('staff-contact-language')).toHaveAttribute('data-locale', 'fr');
    const before = Date.parse(String((await serverRow(e2e, reference)).confirm_by));
    await card.getByTestId('staff-extend-minutes').selectOption('120');
    await card.getByTestId('staff-extend').click();
    await expect(card.getByTestId('staff-contact-answer')).toHaveAttribute('data-ok', 'true');
    await expect
      .poll(async () => Date.parse(String((await serverRow(e2e, reference)).confirm_by)))
      .toBeGreaterThan(before + 60 * 60_000);
    await card.getByTestId('staff-confirm-contact').click();
    await card.getByTestId('staff-confirm-contact-yes').click();
    await expect
      .poll(async () => (await serverRow(e2e, reference)).contact_confirmed_at)
      .not.toBeNull();
    await expect(card.getByTestId('staff-status')).toHaveAttribute('data-stage', 'pending');
    // Now it can be accepted.
    await expect(card.locator('[data-action="accept"]')).toBeVisible();
  });

  test('in Arabic: the same plain words, the WhatsApp message written in Arabic with the reference', async ({
    page,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    const contact = guest('nocode-ar');
    await spendCodeBudget(e2e, contact.email);
    await primeDevice(page);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    const { reference } = await bookAsGuest(page, rental, contact, undefined, ARABIC_LABELS);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const help = page.getByTestId('agency-help');
    await expect(help).toHaveAttribute('data-reason', 'not_sent', { timeout: 30_000 });
    await expect(help).toContainText('تعذّر إرسال رمز التأكيد');
    const whatsapp = decodeURIComponent(
      (await help.getByTestId('agency-whatsapp').getAttribute('href')) ?? '',
    );
    expect(whatsapp).toContain(reference);
    expect(whatsapp).toContain('لم يصلني رمز التأكيد');
  });
});

test.describe('what the wizard accepts, the server accepts', () => {
  test('a name pasted with direction marks (U+202B…U+202C) and a phone wrapped in U+202A…U+202C are cleaned before confirming', async ({
    page,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    const plain = guest('bidi');
    const contact = {
      ...plain,
      name: '\u202bAmina Laouar\u202c',
      phone: `\u202a${plain.phone}\u202c`,
      email: plain.email.replace('@', '\u200b@'),
    };
    await primeDevice(page);
    const { reference } = await bookAsGuest(page, rental, contact, undefined, {
      ...FRENCH_LABELS,
      afterContact: async () => {
        await page.getByLabel('Nom complet').focus();
        await page.getByLabel('Numéro de téléphone').focus();
        await page.getByLabel('Adresse e-mail').focus();
        await page.getByLabel('Nom complet').focus();
        await expect(page.getByTestId('hidden-cleaned')).toBeVisible();
        await expect(page.getByLabel('Nom complet')).toHaveValue('Amina Laouar');
      },
    });
    // Not refused at sync: it reaches the server as cleaned.
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    expect(await serverRow(e2e, reference)).toMatchObject({
      guest_name: 'Amina Laouar',
      guest_phone: plain.phone,
      guest_email: plain.email,
    });
  });

  test('in Arabic: an Arabic name wrapped in direction marks is cleaned and accepted', async ({
    page,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    const plain = guest('bidi-ar');
    const contact = { ...plain, name: '\u202bأمينة لعور\u202c \u2067K.\u2069' };
    await primeDevice(page);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    const { reference } = await bookAsGuest(page, rental, contact, undefined, {
      ...ARABIC_LABELS,
      afterContact: async () => {
        await page.getByLabel('رقم الهاتف').focus();
        await expect(page.getByTestId('hidden-cleaned')).toBeVisible();
      },
    });
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    expect((await serverRow(e2e, reference)).guest_name).toBe('أمينة لعور K.');
  });
});

test.describe('a car the device knows is taken, and the refusal at sync', () => {
  test('step 1 says plainly a booking for these dates would be refused and offers free cars first; "Next" becomes "Continue anyway"', async ({
    page,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    await takeTheCar(e2e, rental);
    await primeDevice(page);
    await page.goto(`/cars/book?car=${rental.carId}&start=${rental.start}&end=${rental.end}`);
    await expect(page.getByText('une réservation pour ces dates serait refusée')).toBeVisible();
    await expect(page.getByText('le serveur confirmera')).toHaveCount(0);
    await expect(page.getByTestId('wizard-next')).toHaveAttribute('data-clash', 'true');
    await expect(page.getByTestId('wizard-next')).toHaveText('Continuer quand même');
    // Dates where the car is free: the usual "Next" again.
    const free = await freeDatesOnCar(e2e, rental);
    await page.goto(`/cars/book?car=${rental.carId}&start=${free.start}&end=${free.end}`);
    await expect(page.getByTestId('wizard-next')).toHaveText('Suivant');
  });

  test('the car page, for dates the device knows are taken: the free cars first, "Book anyway" second (fr and ar)', async ({
    page,
    context,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    await takeTheCar(e2e, rental);
    const [car] = await rest(e2e, `cars?id=eq.${rental.carId}&select=slug`);
    await primeDevice(page);
    const query = `start=${encodeURIComponent(rental.start)}&end=${encodeURIComponent(rental.end)}`;
    await page.goto(`/cars/${String(car!.slug)}?${query}`);
    await expect(page.getByTestId('availability')).toContainText('Déjà réservée');
    const free = page.getByTestId('free-cars-link');
    await expect(free).toHaveText('Voir les voitures libres à ces dates');
    await expect(free).toHaveAttribute('href', `/cars?${query}`);
    const anyway = page.getByTestId('book-button');
    await expect(anyway).toHaveText('Réserver quand même');
    // The free cars come first, in reading order and in the tab order.
    const [freeBox, anywayBox] = [await free.boundingBox(), await anyway.boundingBox()];
    expect(freeBox!.y).toBeLessThan(anywayBox!.y);
    await free.click();
    await expect(page).toHaveURL(`/cars?${query}`);

    await context.addInitScript(() => localStorage.setItem('locale', 'ar'));
    await page.goto(`/cars/${String(car!.slug)}?${query}`);
    await expect(page.getByTestId('free-cars-link')).toHaveText(
      'عرض السيارات المتاحة في هذه التواريخ',
    );
    await expect(page.getByTestId('book-button')).toHaveText('احجز رغم ذلك');
    // Dates where the car is free: the usual single action.
    const other = await freeDatesOnCar(e2e, rental);
    await page.goto(
      `/cars/${String(car!.slug)}?start=${encodeURIComponent(other.start)}&end=${encodeURIComponent(other.end)}`,
    );
    await expect(page.getByTestId('free-cars-link')).toHaveCount(0);
    await expect(page.getByTestId('book-button')).toHaveText('احجز هذه السيارة');
  });

  test('in Arabic: refused at sync, the reason first, no Retry, alternatives told apart with their total, sent only after review', async ({
    page,
    context,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    await primeDevice(page);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await context.setOffline(true);
    const { reference } = await bookAsGuest(
      page,
      rental,
      guest('refused-ar'),
      undefined,
      ARABIC_LABELS,
    );
    await takeTheCar(e2e, rental);
    await context.setOffline(false);
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'needs_attention',
      { timeout: 30_000 },
    );
    await expect(page.getByTestId('attention-reason')).toContainText(/[\u0600-\u06ff]/);
    await expect(page.getByRole('button', { name: 'إعادة المحاولة', exact: true })).toHaveCount(0);
    const alternative = page.getByTestId('alternative').first();
    await expect(alternative.getByTestId('alternative-identity')).toHaveText(/^\d{4} · /);
    await expect(alternative.getByTestId('alternative-total')).toBeVisible();
    await alternative.getByRole('button', { name: 'عرض هذه السيارة' }).click();
    await expect(page.getByTestId('alternative-review')).toContainText('المجموع:');
    expect(await rest(e2e, `bookings?reference=eq.${reference}&select=id`)).toHaveLength(0);
    await page.getByTestId('alternative-confirm').click();
    await expect
      .poll(async () => (await rest(e2e, `bookings?reference=eq.${reference}&select=car_id`))[0], {
        timeout: 30_000,
      })
      .toBeTruthy();
    const landed = await rest(e2e, `bookings?reference=eq.${reference}&select=car_id`);
    expect(landed[0]!.car_id).not.toBe(rental.carId);
  });
});

test.describe('bookings that will not happen, and this device’s list', () => {
  test('a rejected and an expired booking offer neither calendar nor sharing; a looked-up booking is not "made on this device"; one can be forgotten', async ({
    page,
    e2e,
  }) => {
    test.setTimeout(180_000);
    await primeDevice(page);
    const first = await bookAsGuest(page, await pickRental(e2e), guest('dead1'));
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    await expect(page.getByTestId('add-to-calendar')).toBeVisible();
    await expect(page.getByTestId('share-reference')).toBeVisible();

    // Staff reject it: the success page loses the calendar and sharing.
    const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { error } = await admin.rpc('staff_set_booking_status', {
      booking_id: first.bookingId,
      status: 'rejected',
      reason: 'Véhicule en entretien',
    });
    expect(error).toBeNull();
    await page.goto('/guest-booking');
    await expect(
      page
        .locator(`[data-testid="booking-card"][data-reference="${first.reference}"]`)
        .first()
        .getByTestId('sync-state'),
    ).toHaveAttribute('data-stage', 'rejected', { timeout: 20_000 });
    await page.goto(`/booking-success?id=${first.bookingId}`);
    await expect(page.getByTestId('copy-reference')).toBeVisible();
    await expect(page.getByTestId('add-to-calendar')).toHaveCount(0);
    await expect(page.getByTestId('share-reference')).toHaveCount(0);

    // Another of the class: one past its deadline (this device's clock reads it expired).
    const second = await bookAsGuest(page, await pickRental(e2e), guest('dead2'));
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    await sql(
      e2e,
      `update public.bookings set confirm_by = now() - interval '1 second' where id = $1`,
      [second.bookingId],
    );
    await sql(e2e, 'select internal.expire_unconfirmed_bookings()');
    await page.goto('/guest-booking');
    await expect(
      page
        .locator(`[data-testid="booking-card"][data-reference="${second.reference}"]`)
        .first()
        .getByTestId('sync-state'),
    ).toHaveAttribute('data-stage', 'expired', { timeout: 20_000 });
    await page.goto(`/booking-success?id=${second.bookingId}`);
    await expect(page.getByTestId('copy-reference')).toBeVisible();
    await expect(page.getByTestId('add-to-calendar')).toHaveCount(0);

    // A booking made elsewhere, looked up here: shown as the lookup's result only.
    const elsewhere = guest('elsewhere');
    const other = await browserlessBooking(e2e, elsewhere);
    await page.goto('/guest-booking');
    await page.getByLabel('Référence de réservation').fill(other);
    await page.getByLabel('E-mail ou téléphone').fill(elsewhere.email);
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByTestId('lookup-result')).toBeVisible();
    await page.reload();
    const device = page.getByTestId('device-booking');
    await expect(device).toHaveCount(2);
    await expect(page.locator(`[data-reference="${other}"]`)).toHaveCount(0);

    // Forget one on this (borrowed) device.
    const rejected = device.filter({
      has: page.locator(`[data-reference="${first.reference}"]`),
    });
    await rejected.getByTestId('forget-booking').click();
    await rejected.getByTestId('forget-booking-yes').click();
    await expect(device).toHaveCount(1);
    await expect(page.locator(`[data-reference="${first.reference}"]`)).toHaveCount(0);
  });
});

/** Someone else holds the rental's car and dates: a guest booking whose contact is proven. */
async function takeTheCar(e2e: E2eEnv, rental: Rental): Promise<void> {
  const reference = await browserlessBooking(e2e, guest('rival'), rental);
  await sql(e2e, 'update public.bookings set contact_confirmed_at = now() where reference = $1', [
    reference,
  ]);
}

/** A guest booking made from another device (the API), returns its reference. */
async function browserlessBooking(
  e2e: E2eEnv,
  contact: ReturnType<typeof guest>,
  given?: Rental,
): Promise<string> {
  const rental = given ?? (await pickRental(e2e));
  const visitor = apiClient();
  const id = crypto.randomUUID();
  const { error: uploadError } = await visitor.storage
    .from('licenses')
    .upload(`${id}/permis.pdf`, new Blob([PDF], { type: 'application/pdf' }), {
      contentType: 'application/pdf',
    });
  expect(uploadError).toBeNull();
  const digits = crypto
    .randomUUID()
    .replace(/[^0-9]/g, '')
    .padEnd(8, '7');
  const reference = `KR-${digits.slice(0, 4)}-${digits.slice(4, 8)}`;
  const { error } = await visitor.rpc('create_booking', {
    p: {
      id,
      reference,
      car_id: rental.carId,
      start_at: `${rental.start}:00+01:00`,
      end_at: `${rental.end}:00+01:00`,
      pickup_location_id: rental.pickupId,
      dropoff_location_id: rental.pickupId,
      driver_option: 'self',
      license_path: `${id}/permis.pdf`,
      from_abroad: false,
      extras: [],
      insurance: ['civil_liability'],
      guest_name: contact.name,
      guest_phone: contact.phone,
      guest_email: contact.email,
    },
  });
  expect(error).toBeNull();
  return reference;
}
