/**
 * /mybookings against the real stack: a booking made through the RPC shows under "current" and is
 * cancelled after the confirmation (on the server, then under "past"); a completed booking gets
 * one review, stored on the server and shown on the car's page; the page works offline (a
 * cancellation waits in the outbox, under "current" as queued, and moves to "past" once the server
 * took it), at 320 px and in Arabic; a cancellation queued while the
 * token expired offline lands once back online, even if sign-in was down at first.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';

import {
  newCustomer,
  newPendingBooking,
  staffSetStatus,
  type Customer,
} from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible } from './support/a11y.ts';
import { countFailedRefreshes, signInThroughUi } from './support/session.ts';
import { workerInControl } from './support/worker.ts';

type ServerBooking = { reference: string; status: string; car: { slug: string; name: string } };

async function serverBooking(customer: Customer, id: string): Promise<ServerBooking> {
  const { data, error } = await customer.client
    .from('bookings')
    .select('reference, status, car:cars(slug, name)')
    .eq('id', id)
    .single();
  if (error) throw new Error(error.message);
  return data as unknown as ServerBooking;
}

function card(page: Page, reference: string) {
  return page
    .getByRole('tabpanel')
    .locator(`[data-testid="booking-item"][data-reference="${reference}"]`);
}

/**
 * A reserved booking of a new customer, signed in on /mybookings; then two hours offline, so the
 * access token (1 h) has expired, and the booking cancelled with no network. The reloaded page
 * believes it is online, tries to refresh, and supabase-js gives up after its backoff.
 */
async function cancelWithExpiredToken(page: Page, context: BrowserContext) {
  const customer = await newCustomer('Nadir Mansouri');
  const { id } = await newPendingBooking(customer);
  await staffSetStatus(id, 'reserved');
  const { reference } = await serverBooking(customer, id);

  await page.clock.install();
  await signInThroughUi(page, customer, { redirectUrl: '/mybookings' });
  const item = card(page, reference);
  await expect(item.getByTestId('booking-status')).toHaveText('Réservée');
  await workerInControl(page);

  const failedRefreshes = countFailedRefreshes(context);
  await context.setOffline(true);
  await page.clock.fastForward('02:00:00');
  await page.reload();
  await expect(item.getByTestId('booking-status')).toHaveText('Réservée');
  await expect.poll(failedRefreshes).toBeGreaterThan(0);
  await page.clock.fastForward('00:30');

  await item.getByRole('button', { name: 'Annuler la réservation' }).click();
  await page.getByRole('alertdialog').getByTestId('confirm-cancel').click();
  // Not cancelled before the server took it: still under "current", said queued (issue 20).
  await expect(page.getByRole('tab', { name: /En cours/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(item.getByTestId('sync-row')).toHaveAttribute('data-sync', 'cancel_queued');
  await expect(item.getByTestId('booking-status')).toHaveText('Annulation en attente d’envoi');
  await expect(item).not.toContainText('Annulée');
  await expect(item.getByRole('button', { name: 'Annuler la réservation' })).toHaveCount(0);
  await page.getByRole('tab', { name: /Passées/ }).click();
  await expect(item).toHaveCount(0);
  await page.getByRole('tab', { name: /En cours/ }).click();
  await expect(item.getByTestId('sync-row')).toHaveAttribute('data-sync', 'cancel_queued');
  return { customer, id, item };
}

test.describe('my bookings', () => {
  test('a booking shows under current; cancelled after the confirmation, on the server and under past', async ({
    page,
  }) => {
    const customer = await newCustomer('Yasmine Kaci');
    const { id } = await newPendingBooking(customer);
    const { reference } = await serverBooking(customer, id);

    await signInThroughUi(page, customer, { redirectUrl: '/mybookings' });
    await expect(page.getByRole('heading', { level: 1, name: 'Mes réservations' })).toBeVisible();
    await expect(page.getByRole('tab', { name: /En cours/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const item = card(page, reference);
    await expect(item).toBeVisible();
    await expect(item.getByTestId('booking-status')).toHaveText('En attente de validation');
    await expect(item.getByTestId('sync-row')).toHaveAttribute('data-sync', 'awaiting');
    // Pickup at 10:00 Algiers time, whatever the browser's zone (UTC here).
    await expect(item).toContainText('10:00');
    await expect(item.getByTestId('booking-total')).toContainText('DZD');
    await expectAccessible(page, '#main');

    // The details: the price breakdown of the server.
    await item.getByRole('button', { name: 'Détails' }).click();
    const details = page.getByTestId('booking-details');
    await expect(details.getByTestId('price-breakdown')).toContainText(
      'Total à payer à la prise en charge',
    );
    await expect(details.locator('[data-fact="days"] dd')).toHaveText('2');
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    await item.getByRole('button', { name: 'Annuler la réservation' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Annuler la réservation ?' });
    await expect(confirm).toContainText(
      'l’annulation est définitive, elle ne pourra pas être annulée',
    );
    // Focus starts on the safe choice.
    await expect(confirm.getByRole('button', { name: 'Garder la réservation' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Oui, annuler' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Annulation envoyée à l’agence' }),
    ).toBeVisible();
    await expect(item).toHaveCount(0);

    await expect
      .poll(async () => (await serverBooking(customer, id)).status, { timeout: 20_000 })
      .toBe('cancelled');
    await page.getByRole('tab', { name: /Passées/ }).click();
    await expect(card(page, reference).getByTestId('booking-status')).toHaveText('Annulée');
    await expect(
      card(page, reference).getByRole('button', { name: 'Annuler la réservation' }),
    ).toHaveCount(0);
    // The current tab is empty now.
    await page.getByRole('tab', { name: /En cours/ }).click();
    await expect(page.getByTestId('bookings-empty')).toContainText('Aucune réservation en cours.');
  });

  test('a completed booking gets one review: stored on the server, shown on the car page', async ({
    page,
  }) => {
    const customer = await newCustomer('Nadir Benali');
    const { id } = await newPendingBooking(customer);
    for (const status of ['reserved', 'in_progress', 'completed']) await staffSetStatus(id, status);
    const { reference, car } = await serverBooking(customer, id);

    await signInThroughUi(page, customer, { redirectUrl: '/mybookings?tab=past' });
    const item = card(page, reference);
    await expect(item.getByTestId('booking-status')).toHaveText('Terminée');
    await item.getByRole('button', { name: 'Laisser un avis' }).click();
    const dialog = page.getByRole('dialog', { name: 'Laisser un avis' });
    await expect(dialog).toContainText(car.name);

    // Stars by keyboard: a radio group.
    await dialog.getByRole('radio', { name: '1 étoile sur 5' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('radio', { name: '4 étoiles sur 5' })).toBeChecked();
    const comment = 'Voiture impeccable, remise des clés rapide.';
    await dialog.getByLabel('Votre commentaire (facultatif)').fill(comment);
    await expect(dialog).toContainText(`${comment.length} / 1000 caractères`);
    await dialog.getByRole('button', { name: 'Envoyer l’avis' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Avis envoyé : il paraîtra' }),
    ).toBeVisible();
    await expect(item.getByTestId('my-review')).toContainText(comment);
    await expect(item.getByRole('button', { name: 'Laisser un avis' })).toHaveCount(0);

    await expect
      .poll(
        async () => {
          const { data } = await customer.client
            .from('reviews')
            .select('rating, comment')
            .eq('booking_id', id);
          return data;
        },
        { timeout: 20_000 },
      )
      .toEqual([{ rating: 4, comment }]);

    // Once: after a reload (the server's list), still no way to review again.
    await page.reload();
    await expect(item.getByTestId('my-review')).toContainText(comment);
    await expect(item.getByRole('img', { name: '4 étoiles sur 5' })).toBeVisible();
    await expect(item.getByRole('button', { name: 'Laisser un avis' })).toHaveCount(0);

    await page.goto(`/cars/${car.slug}`);
    const reviews = page.getByRole('region', { name: /Avis/ });
    await expect(reviews).toContainText(comment, { timeout: 20_000 });
    await expect(reviews).toContainText('Nadir B.');
  });

  test('works offline, at 320 px and in Arabic: a cancellation waits and lands when back online', async ({
    page,
    context,
  }) => {
    test.setTimeout(150_000);
    const customer = await newCustomer('Amel Saidi');
    const { id } = await newPendingBooking(customer);
    await staffSetStatus(id, 'reserved');
    const { reference } = await serverBooking(customer, id);

    await page.setViewportSize({ width: 320, height: 720 });
    await signInThroughUi(page, customer, { redirectUrl: '/mybookings' });
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'حجوزاتي' })).toBeVisible();
    const item = card(page, reference);
    await expect(item.getByTestId('booking-status')).toHaveText('محجوز');
    // The page's content fits 320 px, in right-to-left (the header is the shell's).
    await expect(item).toContainText(/10:00 · \S/);
    const main = page.locator('#main');
    const overflow = await main.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const [mainBox, box] = [await main.boundingBox(), await item.boundingBox()];
    expect(box!.x).toBeGreaterThanOrEqual(mainBox!.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(mainBox!.x + mainBox!.width);
    expect(box!.width).toBeLessThanOrEqual(320);

    await workerInControl(page);
    await context.setOffline(true);
    await page.reload();
    // A page reloaded under Chromium's emulated offline still says navigator.onLine (see
    // src/infra/network.ts): the app learns it from its first failed call to the server.
    await expect(page.getByTestId('bookings-freshness')).toContainText('دون اتصال', {
      timeout: 30_000,
    });
    await expect(item.getByTestId('booking-status')).toHaveText('محجوز');

    await item.getByRole('button', { name: 'إلغاء الحجز' }).click();
    await page.getByRole('alertdialog').getByTestId('confirm-cancel').click();
    // Said as it is: waiting for the network, and what the agency will see then (issue 20).
    await expect(
      page.getByTestId('toast').filter({ hasText: 'الإلغاء في الانتظار' }),
    ).toBeVisible();
    await expect(page.getByTestId('toast').filter({ hasText: 'بنجاح' })).toHaveCount(0);
    // Still under "current" until the server took it (issue 20).
    await expect(item.getByTestId('sync-row')).toHaveAttribute('data-sync', 'cancel_queued');
    // Still reserved on the server: nothing could be sent.
    expect((await serverBooking(customer, id)).status).toBe('reserved');

    await context.setOffline(false);
    await expect
      .poll(async () => (await serverBooking(customer, id)).status, { timeout: 30_000 })
      .toBe('cancelled');
    await expect(item).toHaveCount(0, { timeout: 20_000 });
    await page.getByRole('tab', { name: /السابقة/ }).click();
    await expect(item.getByTestId('booking-status')).toHaveText('ملغى');
    await expect(item.getByTestId('sync-row')).toHaveCount(0);
  });

  test('a cancellation queued while the token expired offline lands at once when back online', async ({
    page,
    context,
  }) => {
    const { customer, id, item } = await cancelWithExpiredToken(page, context);

    // Back online: the session is refreshed and the cancellation sent, without waiting out the
    // minute supabase-js remembers a failed refresh (the page's clock does not move on).
    await context.setOffline(false);
    await expect
      .poll(async () => (await serverBooking(customer, id)).status, { timeout: 20_000 })
      .toBe('cancelled');
    // Taken by the server: it leaves "current" and shows under "past" as cancelled.
    await expect(item).toHaveCount(0, { timeout: 20_000 });
    await page.getByRole('tab', { name: /Passées/ }).click();
    await expect(item.getByTestId('booking-status')).toHaveText('Annulée');
    await expect(item.getByTestId('sync-row')).toHaveCount(0);
    await expect(page.getByTestId('user-menu-button')).toBeVisible();
  });

  test('back online while sign-in is down: the cancellation waits, and goes once the session is refreshed', async ({
    page,
    context,
  }) => {
    const { customer, id, item } = await cancelWithExpiredToken(page, context);

    let refusedRefreshes = 0;
    const authDown = async (route: Route) => {
      refusedRefreshes += 1;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Service Unavailable' }),
      });
    };
    await page.route('**/auth/v1/token?grant_type=refresh_token', authDown);
    await context.setOffline(false);
    // The flush cannot read a usable session: supabase-js retries the refresh, then gives up
    // (its backoff ends after 30 s), and the entry is held for its owner.
    await expect.poll(() => refusedRefreshes).toBeGreaterThan(1);
    await page.clock.fastForward('00:30');
    await expect(item.getByTestId('sync-row')).toHaveAttribute('data-sync', 'cancel_queued');
    expect((await serverBooking(customer, id)).status).toBe('reserved');

    // Sign-in is back: the session's next try refreshes it, and the held cancellation goes at
    // once, with no `online` event or visibility change to trigger a flush.
    await page.unroute('**/auth/v1/token?grant_type=refresh_token', authDown);
    await expect
      .poll(async () => (await serverBooking(customer, id)).status, { timeout: 45_000 })
      .toBe('cancelled');
    await expect(item).toHaveCount(0, { timeout: 20_000 });
    await page.getByRole('tab', { name: /Passées/ }).click();
    await expect(item.getByTestId('booking-status')).toHaveText('Annulée');
    await expect(item.getByTestId('sync-row')).toHaveCount(0);
    await expect(page.getByTestId('user-menu-button')).toBeVisible();
  });
});
