/**
 * Prices staff change (docs/staff-prices.md), against the real stack: staff set the WiFi
 * hotspot's daily price on /staff/prices (axe on the page); a customer's device, synced before,
 * gets it at its next sync and prices a booking with it offline. The price is put back after.
 */
import { expectAccessible } from './support/a11y.ts';
import { FRENCH_LABELS, PDF, pickRental, primeDevice } from './support/booking-journey.ts';
import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi } from './support/session.ts';

const ALG = '10c00000-0000-4000-8000-000000000021';

/** The device's stored price of an extra (IndexedDB `kiraa`, table `extras`). */
function devicePrice(code: string) {
  return new Promise<number | null>((resolve) => {
    const open = indexedDB.open('kiraa');
    open.onsuccess = () => {
      const get = open.result.transaction('extras').objectStore('extras').get(code);
      get.onsuccess = () =>
        resolve((get.result as { price_dzd: number } | undefined)?.price_dzd ?? null);
      get.onerror = () => resolve(null);
    };
    open.onerror = () => resolve(null);
  });
}

test('staff change an extra’s price; a customer’s offline price uses it after the next sync', async ({
  page,
  browser,
  e2e,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ locale: 'fr-FR', serviceWorkers: 'allow' });
  const customer = await context.newPage();
  await primeDevice(customer);
  expect(await customer.evaluate(devicePrice, 'wifi_hotspot')).toBe(600);

  await signInStaffThroughUi(page, '/staff/prices');
  await expect(page.getByRole('heading', { level: 1, name: 'Prix du catalogue' })).toBeVisible();
  const row = page.locator('[data-testid="priced-row"][data-key="wifi_hotspot"]');
  await row.getByTestId('edit-price').click();
  await expectAccessible(page);
  await row.getByTestId('price-input').fill('-5');
  await row.getByTestId('save-price').click();
  await expect(row.getByTestId('price-input')).toHaveAttribute('aria-invalid', 'true');
  await row.getByTestId('price-input').fill('1 234');
  await row.getByTestId('save-price').click();
  await expect(row.getByTestId('price-form')).toBeHidden();
  await expect(row).toContainText(/1\s234/);

  try {
    // The next sync (at start) brings the new price; then no network at all.
    await expect
      .poll(
        async () => {
          await customer.goto('/cars');
          return customer.evaluate(devicePrice, 'wifi_hotspot');
        },
        { timeout: 30_000 },
      )
      .toBe(1234);
    await context.setOffline(true);
    const rental = await pickRental(e2e);
    await customer.goto(`/cars/book?car=${rental.carId}&start=${rental.start}&end=${rental.end}`);
    await customer.getByTestId('wizard-next').click();
    await expect(customer.getByTestId('wizard-step')).toContainText('2');
    await customer.getByTestId('wizard-next').click();
    await expect(customer.getByTestId('wizard-step')).toContainText('3');
    await customer.getByLabel(FRENCH_LABELS.pickup).selectOption(ALG);
    await customer.getByLabel(FRENCH_LABELS.selfDrive).check();
    await customer
      .getByTestId('licence-input')
      .setInputFiles({ name: 'permis.pdf', mimeType: 'application/pdf', buffer: PDF });
    await customer.getByTestId('wizard-next').click();
    await expect(customer.getByTestId('wizard-step')).toContainText('4');
    const wifi = customer
      .locator('label')
      .filter({ has: customer.locator('input[value="wifi_hotspot"]') });
    await expect(wifi).toContainText(/1\s234/);
    await wifi.locator('input').check();
    await customer.getByLabel(FRENCH_LABELS.name).fill('Amina Prix');
    await customer.getByLabel(FRENCH_LABELS.phone).fill('+213555123456');
    await customer.getByLabel(FRENCH_LABELS.email).fill('amina-prix@kiraa.test');
    await customer.getByTestId('wizard-next').click();
    await expect(customer.getByTestId('wizard-step')).toContainText('5');
    // Two days at 1 234 per day.
    await expect(customer.getByTestId('price-summary')).toContainText(/2\s468/);
  } finally {
    await context.setOffline(false);
    await context.close();
    await row.getByTestId('edit-price').click();
    await row.getByTestId('price-input').fill('600');
    await row.getByTestId('save-price').click();
    await expect(row).toContainText('600');
  }
});
