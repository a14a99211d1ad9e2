/**
 * A car picture this device never downloaded, opened offline, shows the designed placeholder (a
 * drawn car and "photo unavailable", named for screen readers), never a broken-image box.
 */
import { expect, test } from './support/fixtures.ts';
import { neverDownloaded } from './support/pictures.ts';
import { workerInControl } from './support/worker.ts';

test('an uncached car picture offline shows the placeholder', async ({ page, context }) => {
  // Online once, on a page without pictures: the service worker installs and the catalogue syncs.
  await page.goto('/qa');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await workerInControl(page);
  await page.goto('/cars?q=Symbol');
  await expect(page.getByTestId('car-link').first()).toBeVisible();
  const cached = await page.evaluate(async () =>
    (await caches.open('kiraa-car-images')).keys().then((keys) => keys.map((k) => k.url)),
  );

  const refused = await neverDownloaded(context, 'toyota-land-cruiser-prado-2023');
  await context.setOffline(true);
  // A car whose gallery was never shown here: its pictures are not in the cache.
  await page.goto('/cars/toyota-land-cruiser-prado-2023');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Land Cruiser');
  const placeholder = page.getByTestId('car-picture-placeholder').first();
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toHaveAttribute('role', 'img');
  await expect(placeholder).toHaveAccessibleName(/Land Cruiser.*(photo|Photo)/);
  await expect(placeholder).toContainText('Photo indisponible');
  // No image element left that failed to load (the browser's broken-image box).
  const broken = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll('main img')).filter(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 0,
      ).length,
  );
  expect(broken).toBe(0);
  expect(cached.some((url) => url.includes('land-cruiser'))).toBe(false);
  expect(refused()).toBeGreaterThan(0);
});
