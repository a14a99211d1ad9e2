/**
 * Pickup records offline (docs/handovers.md): staff record a pickup with two photos on a phone
 * (390 px) that lost the network; it stays queued across a reload offline, and lands once with its
 * photos when the network is back; the customer reads it (document number masked). axe on the new
 * panel and form; the panel in Arabic.
 */
import pg from 'pg';

import { newCustomer, newPendingBooking, staffSetStatus } from './support/accounts.ts';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi } from './support/session.ts';
import { workerInControl } from './support/worker.ts';

/** A 1×1 PNG: real image bytes, as the storage API checks them. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('a pickup recorded offline with two photos lands once when back online', async ({
  browser,
  e2e,
}) => {
  test.setTimeout(180_000);
  const customer = await newCustomer();
  const booking = await newPendingBooking(customer);
  await staffSetStatus(booking.id, 'reserved');

  const context = await browser.newContext({
    baseURL: e2e.appUrl,
    locale: 'fr-FR',
    timezoneId: 'UTC',
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await signInStaffThroughUi(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.goto(`/staff/bookings/${booking.id}`);
  await workerInControl(page);
  await expect(page.getByTestId('handover-panel')).toBeVisible();
  await page.getByTestId('handover-start-pickup').click();
  const form = page.getByTestId('handover-form-pickup');
  await expect(form).toBeVisible();
  await expectAccessible(page, '[data-testid="handover-panel"]');

  await context.setOffline(true);
  await form.getByLabel('Numéro de la pièce').fill('ab123456');
  await form.getByLabel('Permis de conduire vu').check();
  await form.getByLabel('Compteur (km)').fill('42100');
  await form.locator('input[data-angle="front"]').setInputFiles({
    name: 'front.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await form.locator('input[data-angle="rear_left"]').setInputFiles({
    name: 'rear.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await expect(form.getByTestId('photo-ready')).toHaveCount(2);
  // A damage mark added with the keyboard's way: a zone from the list.
  await form.getByLabel('Zone').selectOption('front_left');
  await form.getByTestId('damage-add').click();
  await form.getByLabel('Dommage 1 : Coin avant gauche').fill('Rayure');
  await form.getByTestId('handover-save').click();

  const queued = page.getByTestId('handover-queued');
  await expect(queued).toBeVisible();
  await expect(queued).toContainText('Gardé sur ce téléphone');

  // A reload while offline: still queued, with its photos.
  await page.reload();
  await expect(page.getByTestId('handover-queue')).toBeVisible();
  await expect(page.getByTestId('handover-queue').getByTestId('handover-photo')).toHaveCount(2);

  const db = new pg.Client({ connectionString: e2e.dbUrl });
  await db.connect();
  try {
    const before = await db.query(
      'select count(*)::int as n from public.booking_handovers where booking_id = $1',
      [booking.id],
    );
    expect(before.rows[0].n).toBe(0);

    // The race that a loaded machine once lost: back online, the page's first load of the
    // booking answers only after the outbox has landed the record (in the database, gone from
    // the phone's outbox). Its history (fetched before the landing) must still come to show the
    // record. The page may show it from its reload after the landing while that first load is
    // still held, so the test awaits the hold before closing its database client.
    let held: Promise<void> | undefined;
    await page.route(
      (url) => url.pathname.endsWith('/rest/v1/bookings') && url.search.includes(booking.id),
      async (route) => {
        if (!held) {
          held = (async () => {
            await expect
              .poll(
                async () => {
                  const landed = await db.query(
                    'select count(*)::int as n from public.booking_handovers where booking_id = $1',
                    [booking.id],
                  );
                  return landed.rows[0].n;
                },
                { timeout: 60_000 },
              )
              .toBe(1);
            await expect(page.getByTestId('handover-queue')).toHaveCount(0, { timeout: 60_000 });
          })();
          // A failed hold fails the test where it is awaited below, not here.
          await held.catch(() => undefined);
        }
        await route.continue();
      },
    );
    await context.setOffline(false);
    await expect(page.getByTestId('handover-synced-pickup')).toBeVisible({ timeout: 60_000 });
    await expect.poll(() => held !== undefined).toBe(true);
    await held;
    await expect(page.getByTestId('handover-queue')).toHaveCount(0);
    await expect(
      page.getByTestId('staff-history').locator('[data-status="pickup_recorded"]'),
    ).toHaveCount(1);

    const rows = await db.query(
      `select odometer_km, photos, damage from public.booking_handovers where booking_id = $1`,
      [booking.id],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0].odometer_km).toBe(42100);
    expect(rows.rows[0].photos.map((p: { angle: string }) => p.angle)).toEqual([
      'front',
      'rear_left',
    ]);
    expect(rows.rows[0].damage).toEqual([
      expect.objectContaining({ zone: 'front_left', note: 'Rayure' }),
    ]);
    const objects = await db.query(
      `select count(*)::int as n from storage.objects where bucket_id = 'handovers' and name like $1`,
      [`${booking.id}/%`],
    );
    expect(objects.rows[0].n).toBe(2);
  } finally {
    await db.end();
  }

  // The customer reads it, the number masked.
  const { data, error } = await customer.client
    .from('booking_handovers')
    .select('odometer_km, id_document_masked, deposit_status, photos')
    .eq('booking_id', booking.id);
  expect(error).toBeNull();
  expect(data).toEqual([
    expect.objectContaining({
      odometer_km: 42100,
      id_document_masked: '•••••456',
      deposit_status: 'held',
    }),
  ]);
  await expectAccessible(page, '[data-testid="handover-panel"]');

  // Arabic, 390 px: the panel is mirrored and labelled.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitemradio', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('handover-synced-pickup')).toHaveText('مُسجَّل');
  await expectAccessible(page, '[data-testid="handover-panel"]');
  await context.close();
});
