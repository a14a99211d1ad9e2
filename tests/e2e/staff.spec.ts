/**
 * The staff screens against the real stack, as the seed's demo admin: accepting a pending booking
 * reaches the customer (notification, /mybookings shows it reserved); a rejection needs a reason
 * (refused with the translated message); a booking moved by someone else meanwhile is refused
 * with the server's translated code; the booking page shows the contact, a signed link to the
 * licence and the status history; a booking whose files are still being checked cannot be
 * accepted yet (translated reason); offline, nothing can be done (nothing is queued); a customer
 * on /staff lands on /access-denied. Staff pass a second factor first (TOTP codes from otpauth):
 * at aal1 the board is never shown, only the code step; a new staff member enrols first.
 */
import type { Browser, Page } from '@playwright/test';
import pg from 'pg';

import {
  newCustomer,
  newGuestWave,
  newPendingBooking,
  staffSetStatus,
  type Customer,
} from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible } from './support/a11y.ts';
import { checkBookingFiles } from '../support/supabase.ts';
import { DEMO_ADMIN_TOTP_SECRET, totpCode } from '../support/mfa.ts';
import {
  DEMO_ADMIN,
  passSecondFactorInUi,
  signInStaffThroughUi,
  signInThroughUi,
} from './support/session.ts';

/** A code of `secret` that is none of the three a verify accepts now. */
function wrongTotp(secret: string): string {
  const near = [-30_000, 0, 30_000].map((d) => totpCode(secret, Date.now() + d));
  let code = '000000';
  for (let n = 0; near.includes(code); n += 1) code = String(n).padStart(6, '0');
  return code;
}

/** The polling interval of notifications (docs/product.md §9) and some slack for the request itself. */
const WITHIN_ONE_POLL = 30_000 + 8_000;

type ServerBooking = { reference: string; status: string; status_reason: string | null };

async function serverBooking(customer: Customer, id: string): Promise<ServerBooking> {
  const { data, error } = await customer.client
    .from('bookings')
    .select('reference, status, status_reason')
    .eq('id', id)
    .single();
  if (error) throw new Error(error.message);
  return data as ServerBooking;
}

/** A signed-in admin in a browser context of its own (its own session, like another device). */
async function adminPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'fr-FR', timezoneId: 'UTC' });
  const page = await context.newPage();
  await signInStaffThroughUi(page);
  return page;
}

function staffCard(page: Page, reference: string) {
  return page.locator(`[data-testid="staff-booking"][data-reference="${reference}"]`);
}

test.describe('staff', () => {
  test('a wave of bookings from one source shows where it comes from, and is rejected in one action', async ({
    browser,
    baseURL,
  }) => {
    const wave = await newGuestWave(3);
    const page = await adminPage(browser, baseURL!);
    const panel = page.getByRole('region', { name: 'D’où viennent les réservations en attente' });
    await expect(panel).toBeVisible();
    const item = panel.locator(`[data-testid="staff-source"][data-source="${wave.domain}"]`);
    await expect(item).toContainText('Domaine d’e-mail');
    await expect(item).toContainText('3 réservations en attente · 3 sans e-mail confirmé');
    for (const reference of wave.references) await expect(item).toContainText(reference);
    await expect(
      panel.locator(`[data-testid="staff-source"][data-source="${wave.address}"]`),
    ).toContainText('Adresse du réseau');
    await expectAccessible(page);

    await item.getByRole('button', { name: 'Refuser les 3 réservations' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Refuser les 3 réservations de cette source ?',
    });
    await dialog.getByRole('button', { name: 'Tout refuser' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Un motif est obligatoire.');
    await dialog
      .getByLabel('Motif (chaque voyageur le verra)')
      .fill('Réservations en série depuis un même domaine');
    await dialog.getByRole('button', { name: 'Tout refuser' }).click();
    await expect(page.getByText('3 réservations refusées')).toBeVisible();
    await expect(item).toHaveCount(0);
    await page.context().close();
  });

  test('a customer on /staff lands on /access-denied', async ({ page }) => {
    const customer = await newCustomer('Karim Ouali');
    await signInThroughUi(page, customer);
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/access-denied$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Accès refusé' })).toBeVisible();
    await page.goto('/staff/bookings/00000000-0000-4000-8000-000000000000');
    await expect(page).toHaveURL(/\/access-denied$/);
  });

  test('the admin accepts a pending booking: the customer is notified and sees it reserved', async ({
    page,
    browser,
    e2e,
  }) => {
    test.setTimeout(180_000);
    const customer = await newCustomer('Rania Meziane');
    const { id } = await newPendingBooking(customer);
    const { reference } = await serverBooking(customer, id);

    await signInThroughUi(page, customer, { redirectUrl: '/mybookings' });
    const mine = page.locator(`[data-testid="booking-item"][data-reference="${reference}"]`);
    await expect(mine.getByTestId('booking-status')).toHaveText('En attente de validation');

    const admin = await adminPage(browser, e2e.appUrl);
    await expect(
      admin.getByRole('heading', { level: 1, name: 'Réservations à gérer' }),
    ).toBeVisible();
    // Pending first: the board opens on the bookings to handle.
    await expect(admin.getByRole('tab', { name: /À traiter/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await admin.getByTestId('staff-search').fill(reference.toLowerCase().replace(/-/g, ''));
    await expect(admin).toHaveURL(/q=kr/);
    const item = staffCard(admin, reference);
    await expect(item).toBeVisible();
    await expect(admin.getByTestId('staff-booking')).toHaveCount(1);
    await expect(item.getByTestId('staff-contact')).toContainText('Rania Meziane');
    await expect(item.getByTestId('staff-contact')).toContainText(customer.email);
    await expect(item.getByRole('link', { name: '+213555000111' })).toHaveAttribute(
      'href',
      'tel:+213555000111',
    );
    await expect(item.getByTestId('staff-price')).toContainText('DZD');
    await expectAccessible(admin, '#main');

    await item.getByRole('button', { name: 'Accepter' }).click();
    const dialog = admin.getByRole('alertdialog', {
      name: `Accepter la réservation ${reference} ?`,
    });
    await dialog.getByTestId('confirm-staff-action').click();
    await expect(
      admin.getByTestId('toast').filter({ hasText: `Réservation ${reference} acceptée` }),
    ).toBeVisible();
    // It leaves the pending list.
    await expect(item).toHaveCount(0);
    expect((await serverBooking(customer, id)).status).toBe('reserved');
    await admin.getByRole('tab', { name: /Réservées/ }).click();
    await expect(staffCard(admin, reference).getByTestId('staff-status')).toHaveText('Réservée');

    // The customer: the bell within one poll, and the booking reserved without a reload.
    await expect(page.getByTestId('notification-dot')).toHaveText('1', {
      timeout: WITHIN_ONE_POLL,
    });
    await expect(mine.getByTestId('booking-status')).toHaveText('Réservée', {
      timeout: WITHIN_ONE_POLL,
    });
    await expect(mine.getByTestId('sync-row')).toHaveAttribute('data-sync', 'confirmed');
    await admin.context().close();
  });

  test('a rejection without a reason is refused with the translated message', async ({
    browser,
    e2e,
  }) => {
    const customer = await newCustomer('Lamia Ferhat');
    const { id } = await newPendingBooking(customer);
    const { reference } = await serverBooking(customer, id);

    const admin = await adminPage(browser, e2e.appUrl);
    await admin.goto(`/staff?q=${reference}`);
    const item = staffCard(admin, reference);
    await item.getByRole('button', { name: 'Refuser' }).click();
    const dialog = admin.getByRole('alertdialog', {
      name: `Refuser la réservation ${reference} ?`,
    });
    await dialog.getByTestId('confirm-staff-action').click();
    await expect(dialog.getByTestId('staff-action-error')).toHaveText('Un motif est obligatoire.');
    expect((await serverBooking(customer, id)).status).toBe('pending');

    await dialog.getByLabel('Motif (le client le verra)').fill('Permis expiré');
    await dialog.getByTestId('confirm-staff-action').click();
    await expect(
      admin.getByTestId('toast').filter({ hasText: `Réservation ${reference} refusée` }),
    ).toBeVisible();
    expect(await serverBooking(customer, id)).toMatchObject({
      status: 'rejected',
      status_reason: 'Permis expiré',
    });
    await admin.context().close();
  });

  test('a booking moved meanwhile is refused with the server’s translated reason', async ({
    browser,
    e2e,
  }) => {
    const customer = await newCustomer('Hakim Zerrouki');
    const { id } = await newPendingBooking(customer);
    const { reference } = await serverBooking(customer, id);

    const admin = await adminPage(browser, e2e.appUrl);
    await admin.goto(`/staff?q=${reference}`);
    const item = staffCard(admin, reference);
    await expect(item.getByTestId('staff-status')).toHaveText('En attente');
    // Another member of staff accepts it first.
    await staffSetStatus(id, 'reserved');
    await item.getByRole('button', { name: 'Accepter' }).click();
    const dialog = admin.getByRole('alertdialog');
    await dialog.getByTestId('confirm-staff-action').click();
    await expect(dialog.getByTestId('staff-action-error')).toHaveText(
      'Cette réservation ne peut plus changer d’état ainsi.',
    );
    await admin.keyboard.press('Escape');
    // The list was reloaded: the booking is no longer pending.
    await expect(item).toHaveCount(0);
    await admin.context().close();
  });

  test('files still being checked: accepting waits, with the translated reason, then goes through', async ({
    browser,
    e2e,
  }) => {
    // As when staff open a booking made a second ago: its licence has no verdict yet. The
    // minute's sweep, which would check it, is held for the length of this test; the upload's
    // own check (its webhook) has run.
    const db = new pg.Client({ connectionString: e2e.dbUrl });
    await db.connect();
    await db.query("update cron.job set active = false where jobname = 'check-upload-sweep'");
    try {
      const customer = await newCustomer('Nadia Khelifi');
      const { id } = await newPendingBooking(customer);
      const { reference } = await serverBooking(customer, id);
      await db.query(
        "delete from internal.upload_checks where bucket_id = 'licenses' and name like $1",
        [`${id}/%`],
      );
      const admin = await adminPage(browser, e2e.appUrl);
      await admin.goto(`/staff?q=${reference}`);
      await staffCard(admin, reference).getByRole('button', { name: 'Accepter' }).click();
      const dialog = admin.getByRole('alertdialog');
      await dialog.getByTestId('confirm-staff-action').click();
      await expect(dialog.getByTestId('staff-action-error')).toHaveText(
        'Les documents de cette réservation sont en cours de vérification. Réessayez dans une minute.',
      );
      expect((await serverBooking(customer, id)).status).toBe('pending');

      // The check (check-upload) has run: the same click accepts it.
      await checkBookingFiles(e2e, id);
      await dialog.getByTestId('confirm-staff-action').click();
      await expect(
        admin.getByTestId('toast').filter({ hasText: `Réservation ${reference} acceptée` }),
      ).toBeVisible();
      expect((await serverBooking(customer, id)).status).toBe('reserved');
      await admin.context().close();
    } finally {
      await db.query("update cron.job set active = true where jobname = 'check-upload-sweep'");
      await db.end();
    }
  });

  test('the booking page: contact, licence through a signed link, history; start and complete', async ({
    browser,
    e2e,
  }) => {
    const customer = await newCustomer('Sami Bouaziz');
    const { id } = await newPendingBooking(customer);
    await staffSetStatus(id, 'reserved');
    const { reference } = await serverBooking(customer, id);

    const admin = await adminPage(browser, e2e.appUrl);
    await admin.goto(`/staff?status=reserved&q=${reference}`);
    await staffCard(admin, reference)
      .getByRole('link', { name: 'Détails, documents et historique' })
      .click();
    await expect(admin).toHaveURL(new RegExp(`/staff/bookings/${id}$`));
    await expect(admin.getByRole('heading', { level: 1 })).toContainText(reference);
    await expect(admin.getByTestId('staff-contact')).toContainText(customer.email);
    await expect(
      admin.getByTestId('staff-contact').getByRole('link', { name: customer.email }),
    ).toHaveAttribute('href', `mailto:${customer.email}`);

    // The licence opens through a signed URL the API serves without the admin's token.
    const link = admin.getByTestId('document-link');
    await expect(link).toHaveText(/permis\.png/);
    const href = await link.getAttribute('href');
    expect(href).toContain('/storage/v1/object/sign/licenses/');
    const file = await fetch(href!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('image/png');

    const history = admin.getByTestId('staff-history').getByRole('listitem');
    await expect(history).toHaveCount(2);
    await expect(history.nth(0)).toHaveAttribute('data-status', 'pending');
    await expect(history.nth(0)).toContainText('Sami Bouaziz');
    await expect(history.nth(1)).toHaveAttribute('data-status', 'reserved');
    await expect(history.nth(1)).toContainText('Samira Haddad');

    await admin.getByRole('button', { name: 'Démarrer la location' }).click();
    await admin.getByRole('alertdialog').getByTestId('confirm-staff-action').click();
    await expect(admin.getByTestId('staff-status')).toHaveText('En location');
    await admin.getByRole('button', { name: 'Terminer la location' }).click();
    await admin.getByRole('alertdialog').getByTestId('confirm-staff-action').click();
    await expect(admin.getByTestId('staff-status')).toHaveText('Terminée');
    await expect(history).toHaveCount(4);
    await expect(admin.getByRole('button', { name: 'Terminer la location' })).toHaveCount(0);
    expect((await serverBooking(customer, id)).status).toBe('completed');
    await admin.context().close();
  });

  test('offline, the board says so and offers no action (nothing is queued)', async ({
    browser,
    e2e,
  }) => {
    const customer = await newCustomer('Imene Rahmani');
    const { id } = await newPendingBooking(customer);
    const { reference } = await serverBooking(customer, id);

    const admin = await adminPage(browser, e2e.appUrl);
    await admin.goto(`/staff?q=${reference}`);
    const item = staffCard(admin, reference);
    await expect(item.getByRole('button', { name: 'Accepter' })).toBeEnabled();
    await admin.context().setOffline(true);
    await expect(admin.getByTestId('staff-offline')).toContainText('Hors ligne');
    await expect(item.getByRole('button', { name: 'Accepter' })).toBeDisabled();
    await admin.context().setOffline(false);
    await expect(admin.getByTestId('staff-offline')).toHaveCount(0);
    await expect(item.getByRole('button', { name: 'Accepter' })).toBeEnabled();
    expect((await serverBooking(customer, id)).status).toBe('pending');
    await admin.context().close();
  });

  test('a staff member at aal1 is led to the second factor, never to a broken board', async ({
    page,
  }) => {
    await signInThroughUi(page, DEMO_ADMIN, { redirectUrl: '/staff' });
    const gate = page.getByTestId('second-factor');
    await expect(gate).toHaveAttribute('data-step', 'challenge');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Deuxième étape de connexion' }),
    ).toBeVisible();
    // No board behind it: no bookings, no load error.
    await expect(page.getByTestId('staff-booking')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Réservations à gérer' })).toHaveCount(0);
    await expectAccessible(page, '[data-testid="second-factor"]');
    // A wrong code is refused with the translated reason; the right one opens the board.
    await page.getByLabel('Code à 6 chiffres').fill(wrongTotp(DEMO_ADMIN_TOTP_SECRET));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await expect(gate.getByRole('alert')).toHaveText(/Code incorrect ou expiré/);
    await passSecondFactorInUi(page);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Réservations à gérer' }),
    ).toBeVisible();
    await expect(page.getByTestId('staff-booking').first()).toBeVisible();
  });

  test('a new staff member enrols TOTP (QR code and key) and reaches the board', async ({
    page,
    browser,
    baseURL,
    e2e,
  }) => {
    const member = await newCustomer('Yasmine Belkacem');
    const db = new pg.Client({ connectionString: e2e.dbUrl });
    await db.connect();
    try {
      await db.query(`update public.profiles set role = 'admin' where id = $1`, [member.id]);
    } finally {
      await db.end();
    }
    await signInThroughUi(page, member, { redirectUrl: '/staff' });
    const gate = page.getByTestId('second-factor');
    await expect(gate).toHaveAttribute('data-step', 'enrol');
    await expect(page.getByTestId('staff-booking')).toHaveCount(0);
    await page.getByRole('button', { name: 'Configurer l’application' }).click();
    await expect(gate).toHaveAttribute('data-step', 'scan');
    const qr = page.getByRole('img', {
      name: 'QR code à scanner avec l’application d’authentification',
    });
    await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/);
    // The QR code is drawn (an SVG the browser decodes), not a broken image.
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    const secret = (await page.getByTestId('second-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page, '[data-testid="second-factor"]');
    await page.getByLabel('Code à 6 chiffres').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Activer' }).click();
    await expect(gate).toHaveCount(0);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Réservations à gérer' }),
    ).toBeVisible();

    // On another device: the code only (the factor is verified).
    const other = await browser.newContext({ baseURL, locale: 'fr-FR', timezoneId: 'UTC' });
    const second = await other.newPage();
    await signInThroughUi(second, member, { redirectUrl: '/staff' });
    await expect(second.getByTestId('second-factor')).toHaveAttribute('data-step', 'challenge');
    await passSecondFactorInUi(second, { account: member, secret });
    await expect(
      second.getByRole('heading', { level: 1, name: 'Réservations à gérer' }),
    ).toBeVisible();
    await other.close();
  });
});
