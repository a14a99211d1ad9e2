/**
 * A shared wizard link (`/cars/book?car=…`) opened on a first visit, before the device has the
 * linked car (the catalogue's first page is on the device, the rest still on its way): once the
 * car arrives, the wizard's car field shows it, and "Suivant" goes on (src/features/booking/steps/
 * basics-step.tsx).
 */
import { CATALOGUE_FIRST_PAGE_SIZE } from '../../src/sync/catalogue-requests.ts';
import { pickRental, rest } from './support/booking-journey.ts';
import { expect, test } from './support/fixtures.ts';

// The catalogue's requests go through page.route only without the service worker.
test.use({ serviceWorkers: 'block' });

test('a wizard link for a car the device does not have yet shows that car once it arrives', async ({
  page,
  e2e,
}) => {
  // The car updated last comes in the catalogue's last page, never in its first.
  const firstPage = CATALOGUE_FIRST_PAGE_SIZE.cars!;
  const [latest] = await rest(e2e, 'cars?active=is.true&select=id&order=updated_at.desc&limit=1');
  const fleet = await rest(e2e, 'cars?active=is.true&select=id&order=id');
  test.skip(fleet.length <= firstPage, 'the whole fleet fits in the first page');
  const rental = await pickRental(
    e2e,
    fleet.findIndex((car) => car.id === latest!.id),
  );

  // Every catalogue page after the first waits until the test lets it through.
  let pages = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${e2e.apiUrl}/rest/v1/cars?**`, async (route) => {
    pages += 1;
    if (pages > 1) await released;
    await route.continue();
  });
  await page.goto(`/cars/book?car=${rental.carId}&start=${rental.start}&end=${rental.end}`);
  await expect(page.getByTestId('wizard-step')).toContainText('1');
  const select = page.getByLabel('Voiture');
  await expect(select.locator(`option[value="${rental.carId}"]`)).toHaveCount(0);

  release();
  await expect(select).toHaveValue(rental.carId, { timeout: 30_000 });
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-step')).toContainText('2');
});
