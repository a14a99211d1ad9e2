/**
 * What a guest is told, end to end (real Chromium, the production build, the real stack and its
 * dev mailbox): the e-mail confirmed from the mail's link keeps the booking pending for staff; an
 * unconfirmed one expires and the guest sees why; a staff rejection and a refusal at sync each
 * reach the guest by mail with the reference and the reason, and the device tells the same.
 */
import { randomUUID } from 'node:crypto';

import pg from 'pg';

import { apiClient, signedInClient, waitForMail, type Mail } from './support/accounts';
import {
  bookAsGuest,
  confirmByMail,
  guest,
  PDF,
  pickRental,
  primeDevice,
  rest,
  type Rental,
} from './support/booking-journey';
import type { E2eEnv } from './support/env';
import { expect, test } from './support/fixtures';
import { DEMO_ADMIN } from './support/session';

/** The confirmation mail of a booking, and the link in it. */
async function confirmationLink(email: string, reference: string): Promise<string> {
  const mail = await waitForMail(email, 20_000, (m) => /\b\d{8}\b/.test(m.text));
  expect(mail.subject).toContain(reference);
  const link = /(https?:\/\/\S+\/guest-booking\?ref=[A-Z0-9-]+&code=\d{8})/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeTruthy();
  return link!;
}

/** SQL as the database owner: drives time (the deadline) and runs the periodic expiry. */
async function sql(e2e: E2eEnv, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: e2e.dbUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

async function lapseAndExpire(e2e: E2eEnv, bookingId: string): Promise<void> {
  await sql(
    e2e,
    `update public.bookings set confirm_by = now() - interval '1 second' where id = $1`,
    [bookingId],
  );
  await sql(e2e, 'select internal.expire_unconfirmed_bookings()');
}

async function serverRow(e2e: E2eEnv, reference: string) {
  const rows = await rest(
    e2e,
    `bookings?reference=eq.${reference}&select=id,status,status_reason,contact_confirmed_at`,
  );
  return rows[0];
}

const mailFor = (reference: string, words: string) => (m: Mail) =>
  m.subject.includes(reference) && m.text.includes(words);

/**
 * Someone else books the rental's car and dates through the API (a guest, from elsewhere) and
 * confirms it with the mailed code, so it holds the car.
 */
async function takeTheCar(rental: Rental): Promise<void> {
  const visitor = apiClient();
  const id = randomUUID();
  const { error: uploadError } = await visitor.storage
    .from('licenses')
    .upload(`${id}/permis.pdf`, new Blob([PDF], { type: 'application/pdf' }), {
      contentType: 'application/pdf',
    });
  expect(uploadError).toBeNull();
  const other = guest('other');
  const reference = `KR-${randomUUID()
    .replace(/[^0-9]/g, '')
    .slice(0, 4)}-ZZZZ`;
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
      guest_name: other.name,
      guest_phone: other.phone,
      guest_email: other.email,
    },
  });
  expect(error).toBeNull();
  // That traveller types their code: a proven booking holds the car.
  await confirmByMail(other.email, reference);
}

test.describe('a guest’s booking, told truthfully', () => {
  test('the e-mail confirmed from the mail’s link: the booking stays pending for staff; a rejection reaches the guest with its reason', async ({
    page,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    const contact = guest('confirm');
    await primeDevice(page);
    const { reference, bookingId } = await bookAsGuest(page, rental, contact);

    // On the server, held only until the e-mail is confirmed: the page says what to do, by when.
    const heading = page.getByTestId('booking-heading');
    await expect(heading).toHaveAttribute('data-stage', 'awaiting_confirmation', {
      timeout: 30_000,
    });
    await expect(heading).toHaveText('Confirmez votre adresse e-mail');
    await expect(page.getByTestId('booking-hint')).toContainText('avant');

    // The link of the dev mailbox's mail confirms as the page opens.
    await page.goto(await confirmationLink(contact.email, reference));
    await expect(page.getByTestId('confirm-reference')).toHaveText(reference);
    await expect(page.getByTestId('contact-confirmed')).toBeVisible();
    const row = await serverRow(e2e, reference);
    expect(row).toMatchObject({ id: bookingId, status: 'pending' });
    expect(row!.contact_confirmed_at).not.toBeNull();

    // Confirmed: the periodic expiry never takes it, even past the old deadline.
    await lapseAndExpire(e2e, bookingId);
    expect(await serverRow(e2e, reference)).toMatchObject({ status: 'pending' });
    await page.goto(`/booking-success?id=${bookingId}`);
    await expect(heading).toHaveAttribute('data-stage', 'pending');
    await expect(heading).toHaveText('Réservation enregistrée');

    // Staff reject it with a reason: the guest gets a mail with the reference and the reason…
    const admin = await signedInClient(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const reason = 'Véhicule immobilisé pour entretien';
    const { error } = await admin.rpc('staff_set_booking_status', {
      booking_id: bookingId,
      status: 'rejected',
      reason,
    });
    expect(error).toBeNull();
    const mail = await waitForMail(contact.email, 20_000, mailFor(reference, reason));
    expect(mail.subject).toContain('Réservation refusée par l’agence');

    // …the device learns it when "Find my booking" opens (its own bookings are refreshed)…
    await page.goto('/guest-booking');
    const mine = page
      .locator(`[data-testid="booking-card"][data-reference="${reference}"]`)
      .first();
    await expect(mine.getByTestId('sync-state')).toHaveAttribute('data-stage', 'rejected');
    await expect(mine.getByTestId('booking-reason')).toContainText(reason);

    // …and the lookup says "refused" with a hint that agrees, and the reason.
    await page.getByLabel('Référence de réservation').fill(reference);
    await page.getByLabel('E-mail ou téléphone').fill(contact.email);
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    const result = page.getByTestId('lookup-result');
    await expect(result.getByTestId('sync-state')).toHaveAttribute('data-stage', 'rejected');
    await expect(result.getByTestId('sync-state')).toHaveText('Refusée');
    await expect(result.getByTestId('booking-hint')).toHaveText(
      'L’agence a refusé cette réservation.',
    );
    await expect(result.getByTestId('booking-reason')).toContainText(reason);
  });

  test('an unconfirmed booking expires: the guest gets a mail, and the link and the device say why', async ({
    page,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    const contact = guest('expire');
    await primeDevice(page);
    const { reference, bookingId } = await bookAsGuest(page, rental, contact);
    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'awaiting_confirmation',
      { timeout: 30_000 },
    );
    const link = await confirmationLink(contact.email, reference);

    // 45 minutes later (driven in SQL), the periodic job expires it and mails the guest.
    await lapseAndExpire(e2e, bookingId);
    expect(await serverRow(e2e, reference)).toMatchObject({
      status: 'expired',
      status_reason: 'contact_not_confirmed',
    });
    await waitForMail(contact.email, 20_000, (m) => m.subject.includes('expirée'));

    // The late link says it expired, and this device's copy learns it.
    await page.goto(link);
    await expect(page.getByTestId('confirm-refused')).toHaveAttribute(
      'data-reason',
      'booking_expired',
    );
    await expect(page.getByTestId('confirm-refused')).toHaveText(
      'L’adresse e-mail n’a pas été confirmée à temps : la réservation a expiré.',
    );
    const card = page
      .locator(`[data-testid="booking-card"][data-reference="${reference}"]`)
      .first();
    await expect(card.getByTestId('sync-state')).toHaveText('Expirée');
    await expect(card.getByTestId('booking-hint')).toHaveText(
      'L’adresse e-mail n’a pas été confirmée à temps.',
    );
    await page.goto(`/booking-success?id=${bookingId}`);
    await expect(page.getByTestId('booking-heading')).toHaveText('Réservation expirée');
  });

  test('offline, the lookup opens a matching booking stored here, and otherwise needs the network', async ({
    page,
    context,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    const contact = guest('lookup');
    await primeDevice(page);
    const { reference } = await bookAsGuest(page, rental, contact);
    await page.goto('/guest-booking');
    await context.setOffline(true);

    await page.getByLabel('Référence de réservation').fill(reference.toLowerCase());
    await page.getByLabel('E-mail ou téléphone').fill(contact.phone.replace('+213', '0'));
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByTestId('lookup-result')).toContainText(reference);

    await page.getByLabel('E-mail ou téléphone').fill('someone-else@kiraa.test');
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByTestId('lookup-needs-network')).toBeVisible();
    await expect(page.getByTestId('lookup-result')).toHaveCount(0);
    await context.setOffline(false);
  });

  test('refused when it reaches the server: the guest gets a mail with the reference and the reason, and the device says what to do', async ({
    page,
    context,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    const contact = guest('refused');
    await primeDevice(page);

    // Booked offline; meanwhile someone else takes the car for these dates.
    await context.setOffline(true);
    const { reference } = await bookAsGuest(page, rental, contact);
    await expect(page.getByTestId('booking-heading')).toHaveAttribute('data-stage', 'queued');
    await takeTheCar(rental);

    // Back online: refused, reported, told by mail; the page never says "recorded".
    await context.setOffline(false);
    const heading = page.getByTestId('booking-heading');
    await expect(heading).toHaveAttribute('data-stage', 'needs_attention', { timeout: 30_000 });
    await expect(heading).toHaveText('Réservation refusée par le serveur');
    await expect(page.getByTestId('attention-reason')).toHaveText(
      'Cette voiture a été réservée par quelqu’un d’autre pour ces dates.',
    );
    await expect(page.getByTestId('refusal-notified')).toBeVisible({ timeout: 15_000 });
    const mail = await waitForMail(
      contact.email,
      20_000,
      mailFor(reference, 'un autre client a réservé cette voiture'),
    );
    expect(mail.subject).toContain('Réservation refusée par le serveur');
    // It names the car and the dates (issue 20).
    expect(mail.text).toContain(`Voiture : ${rental.carName}`);
    expect(mail.text).toMatch(/Prise en charge : \d{2}\/\d{2}\/\d{4} 10:00/);
    expect(await serverRow(e2e, reference)).toBeUndefined();
  });
});
