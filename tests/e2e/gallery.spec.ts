/**
 * Issue 20, the car page's gallery: a finger swipe moves between photos (the next one comes from
 * the end of the line, so from the left in Arabic), so do the labelled previous/next buttons and
 * the thumbnails' arrow keys; "n / N" says where one is; "full screen" opens an accessible dialog
 * (named, focus kept inside, Esc closes, focus back on the opener) that fits 320 px; offline, a
 * photo that was never cached shows "Photo indisponible" there too.
 */
import type { Locator, Page } from '@playwright/test';

import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { neverDownloaded } from './support/pictures.ts';
import { workerInControl } from './support/worker.ts';

const CAR = '/cars/renault-clio-5-2023';

/**
 * A one-finger swipe across `target`, `dx` px sideways, as a touch screen sends it (DevTools
 * touch events: the browser turns them into pointer events, as on a phone).
 */
async function swipe(page: Page, target: Locator, dx: number) {
  const box = (await target.boundingBox())!;
  const y = box.y + box.height / 2;
  const x0 = box.x + box.width / 2 - dx / 2;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }],
    });
  await touch('touchStart', x0);
  for (let i = 1; i <= 5; i += 1) await touch('touchMove', x0 + (dx * i) / 5);
  await touch('touchEnd', x0 + dx);
  await cdp.detach();
}

const words = {
  fr: {
    photo: (n: number) => `Renault Clio 5, photo ${n} sur 3`,
    next: 'Photo suivante',
    previous: 'Photo précédente',
    full: 'Voir les photos en plein écran',
    close: 'Fermer',
    title: (n: number) => `Renault Clio 5 · photo ${n} sur 3`,
  },
  ar: {
    photo: (n: number) => `Renault Clio 5، الصورة ${n} من 3`,
    next: 'الصورة التالية',
    previous: 'الصورة السابقة',
    full: 'عرض الصور بملء الشاشة',
    close: 'إغلاق',
    title: (n: number) => `Renault Clio 5 · الصورة ${n} من 3`,
  },
} as const;

test.use({ hasTouch: true });

for (const locale of ['fr', 'ar'] as const) {
  const w = words[locale];
  // Swiping leftwards brings the next photo in French; in Arabic it comes from the left.
  const nextSwipe = locale === 'fr' ? -160 : 160;

  test(`${locale}: swipe, buttons, keyboard and the full-screen dialog`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.addInitScript((l) => localStorage.setItem('locale', l), locale);
    await page.goto(CAR);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    const stage = page.getByTestId('gallery-stage');
    const position = page.getByTestId('gallery-position');
    await expect(position).toHaveText('1 / 3');
    await expect(stage.getByRole('img', { name: w.photo(1) })).toBeVisible();

    // A finger swipe, both ways; a short or vertical move changes nothing.
    await swipe(page, stage, nextSwipe);
    await expect(position).toHaveText('2 / 3');
    await expect(stage.getByRole('img', { name: w.photo(2) })).toBeVisible();
    await swipe(page, stage, -nextSwipe);
    await expect(position).toHaveText('1 / 3');
    await swipe(page, stage, nextSwipe / 8);
    await expect(position).toHaveText('1 / 3');

    // The labelled buttons (wrapping around).
    await stage.getByRole('button', { name: w.previous }).click();
    await expect(position).toHaveText('3 / 3');
    await stage.getByRole('button', { name: w.next }).click();
    await expect(position).toHaveText('1 / 3');

    // The keyboard: the selected thumbnail, then the arrow that points to the end of the line.
    const thumb = page.getByRole('button', { name: w.photo(1) });
    await thumb.focus();
    await page.keyboard.press(locale === 'fr' ? 'ArrowRight' : 'ArrowLeft');
    await expect(position).toHaveText('2 / 3');
    await expect(page.getByRole('button', { name: w.photo(2) })).toBeFocused();

    // Full screen, from the keyboard.
    const opener = page.getByRole('button', { name: w.full });
    await opener.focus();
    await page.keyboard.press('Enter');
    // Named after the car and the photo shown (the name follows the photo).
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleName(w.title(2));
    await expect(dialog.getByRole('button', { name: w.close })).toBeFocused();
    await expect(dialog.getByTestId('photo-viewer-position')).toHaveText('2 / 3');
    await expect(dialog.getByRole('img', { name: w.photo(2) })).toBeVisible();
    // It fills the 320 px screen and nothing scrolls sideways.
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(320);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(page, '[data-testid="photo-viewer"]');

    // Focus stays inside: Tab and Shift+Tab go round its three buttons.
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Arrows (mirrored), a swipe and the buttons move inside the dialog too.
    await page.keyboard.press(locale === 'fr' ? 'ArrowRight' : 'ArrowLeft');
    await expect(dialog.getByTestId('photo-viewer-position')).toHaveText('3 / 3');
    await swipe(page, dialog.getByTestId('photo-viewer-stage'), nextSwipe);
    await expect(dialog.getByTestId('photo-viewer-position')).toHaveText('1 / 3');
    await dialog.getByRole('button', { name: w.previous }).click();
    await expect(dialog).toHaveAccessibleName(w.title(3));

    // Esc closes; focus is back on the opener, and the page shows the photo seen last.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(opener).toBeFocused();
    await expect(position).toHaveText('3 / 3');
  });
}

test('offline, a photo never cached shows "Photo indisponible" full screen', async ({
  page,
  context,
}) => {
  // Online once, on a page without pictures: the worker installs and the catalogue syncs.
  await page.goto('/qa');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await workerInControl(page);
  await page.goto('/cars?q=Symbol');
  await expect(page.getByTestId('car-link').first()).toBeVisible();

  const refused = await neverDownloaded(context, 'toyota-land-cruiser-prado-2023');
  await context.setOffline(true);
  await page.goto('/cars/toyota-land-cruiser-prado-2023');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Land Cruiser');
  await page.getByRole('button', { name: 'Voir les photos en plein écran' }).click();
  const dialog = page.getByRole('dialog', { name: /Land Cruiser/ });
  await expect(dialog).toBeVisible();
  const placeholder = dialog.getByTestId('car-picture-placeholder');
  await expect(placeholder).toContainText('Photo indisponible');
  await expect(placeholder).toHaveAccessibleName(/Land Cruiser.*photo indisponible/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(refused()).toBeGreaterThan(0);
});
