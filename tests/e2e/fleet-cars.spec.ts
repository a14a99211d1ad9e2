/**
 * The fleet screen against the real stack (docs/fleet.md, "Fleet"): staff add a car with its
 * three descriptions, price and deposit; a customer whose device already synced the catalogue sees
 * it after the next sync; a wrong field is refused on the device before anything is sent; staff
 * retire it and the customer's catalogue drops it through the delta sync. axe on the page.
 */
import { randomUUID } from 'node:crypto';

import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi } from './support/session.ts';

test('staff add a car, customers see it after the next sync, and retiring removes it', async ({
  page,
  browser,
}) => {
  const name = `Logan ${randomUUID().slice(0, 6)}`;

  // The customer's device has the catalogue already.
  const context = await browser.newContext({ locale: 'fr-FR' });
  const customer = await context.newPage();
  await customer.goto('/cars');
  await expect(customer.getByTestId('car-link').first()).toBeVisible();

  await signInStaffThroughUi(page, '/staff/cars');
  await expect(page.getByRole('heading', { level: 1, name: 'Flotte' })).toBeVisible();
  await page.getByTestId('add-car').click();
  const form = page.getByTestId('car-form');
  await form.getByLabel('Nom affiché').fill(name);
  await form.getByLabel('Marque').fill('Dacia');
  await form.getByLabel('Modèle').fill('Logan');
  await form.getByLabel('Moteur').fill('1.5 dCi 90 ch');
  await form.getByLabel('Carrosserie').selectOption({ label: 'Berline' });
  await form.getByLabel('Prix par jour (DZD)').fill('4500');
  await form.getByLabel('Caution (DZD)').fill('30000');
  await form.getByLabel('Description en français').fill('Berline économique et robuste.');
  await form.getByLabel('Description en anglais').fill('Economical, sturdy sedan.');
  // Refused on the device first: the Arabic description is missing.
  await page.getByTestId('save-car').click();
  await expect(form.getByLabel('Description en arabe')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Description en arabe').fill('سيارة سيدان اقتصادية ومتينة.');
  await expectAccessible(page);
  await page.getByTestId('save-car').click();
  await expect(form).toBeHidden();
  const item = page.getByTestId('fleet-car').filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(item).toContainText('4 500');

  // The customer's next sync (the app syncs at start) brings it.
  await expect(async () => {
    await customer.goto(`/cars?q=${encodeURIComponent(name)}`);
    await expect(customer.getByTestId('car-link').filter({ hasText: name })).toHaveCount(1, {
      timeout: 3_000,
    });
  }).toPass({ timeout: 30_000 });

  // Retired: kept for history, gone from the customer's catalogue after the next sync.
  await item.getByTestId('retire-car').click();
  await expect(item).toContainText('Retirée');
  await expect(async () => {
    await customer.goto(`/cars?q=${encodeURIComponent(name)}`);
    await expect(customer.getByTestId('empty-message')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await context.close();
});
