/**
 * Two cars of one name (the seed's two "Renault Symbol", 2022 diesel and 2020 petrol) are told
 * apart by year, fuel and gearbox in the car list and in the booking wizard (issue 13).
 */
import { expect, test } from './support/fixtures.ts';

test('the two Renault Symbol are told apart in the list and in the wizard', async ({ page }) => {
  await page.goto('/cars?q=Symbol');
  const cards = page.locator('li').filter({
    has: page.getByTestId('car-link').filter({ hasText: /^Renault Symbol$/ }),
  });
  await expect(cards).toHaveCount(2);
  const texts = await cards.allInnerTexts();
  expect(texts.some((t) => t.includes('2022') && t.includes('Diesel'))).toBe(true);
  expect(texts.some((t) => t.includes('2020') && t.includes('Essence'))).toBe(true);

  await page.goto('/cars/book');
  const options = page
    .locator('select[name="car_id"] option')
    .filter({ hasText: 'Renault Symbol' });
  await expect(options).toHaveCount(2);
  expect((await options.allInnerTexts()).map((t) => t.split(' — ')[0]).sort()).toEqual([
    'Renault Symbol (2020 · Essence · Manuelle)',
    'Renault Symbol (2022 · Diesel · Manuelle)',
  ]);
});
