import type { Page } from '@playwright/test';

import { REFERENCE_RE } from '../../src/domain/reference.ts';
import { expect, test } from './support/fixtures.ts';

/** Visible texts of the page, one per element with its own text, drawer and contact card open. */
async function visibleTexts(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      if (!el || !text || el.closest('[aria-hidden="true"], script, style, noscript')) continue;
      out.push(text);
    }
    return out;
  });
  // The shell's overlays: the contact card and the navigation drawer.
  await page.getByTestId('contact-button').click();
  texts.push(...(await page.getByTestId('contact-card').innerText()).split('\n'));
  await page.keyboard.press('Escape');
  await page.getByTestId('menu-button').click();
  texts.push(...(await page.getByTestId('nav-drawer').innerText()).split('\n'));
  await page.keyboard.press('Escape');
  return texts.map((t) => t.trim()).filter(Boolean);
}

/** Text that is the same in every language: names, numbers, codes. */
function languageNeutral(text: string): boolean {
  return (
    !/\p{L}{2}/u.test(text) ||
    /^(Kiraa|Français|English|العربية|FR|EN|AR)$/i.test(text) ||
    /^[+\d\s().:/-]+$/.test(text) ||
    /@/.test(text) ||
    REFERENCE_RE.test(text) ||
    /^©/.test(text)
  );
}

test.describe('languages', () => {
  test('the switch offers French, English and Arabic; the choice survives a reload', async ({
    page,
  }) => {
    await page.goto('/qa');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await page.getByTestId('language-switch').click();
    const options = page.getByRole('menuitemradio');
    await expect(options).toHaveText(['Français', 'English', 'العربية']);
    await expect(options.first()).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    await expect(page.getByTestId('theme-switch')).toHaveAccessibleName(
      /Switch to (dark|light) theme/,
    );
  });

  test('Arabic: rtl on <html> before the app starts, and the drawer opens from the right', async ({
    page,
  }) => {
    await page.goto('/qa');
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitemradio', { name: 'العربية' }).click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('theme') ?? '{}').direction),
    ).toBe('rtl');

    // Before any script of the app: the inline head script already set the direction.
    await page.route(/\/assets\/index-.*\.js$/, (route) => route.abort());
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.unroute(/\/assets\/index-.*\.js$/);
    await page.reload();

    await page.getByTestId('menu-button').click();
    const drawer = page.getByRole('dialog', { name: 'القائمة' });
    await expect(drawer).toBeVisible();
    const width = page.viewportSize()!.width;
    // From the right edge, once its slide-in is over.
    await expect
      .poll(async () => {
        const box = (await drawer.boundingBox())!;
        return Math.round(box.x + box.width);
      })
      .toBe(width);
    // Its last frame can still be a sub-pixel short of the end (330.0000076 px wide).
    await drawer.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    expect((await drawer.boundingBox())!.width).toBe(330);
    await expect(drawer.getByRole('link', { name: 'الأسئلة والأجوبة' })).toBeVisible();
  });

  for (const path of ['/qa', '/contacts', '/privacy-policy', '/terms']) {
    test(`no French text is left on ${path} in Arabic`, async ({ page }) => {
      const french = new Set((await visibleTexts(page, path)).filter((t) => !languageNeutral(t)));
      expect(french.size).toBeGreaterThan(5);
      await page.evaluate(() => localStorage.setItem('locale', 'ar'));
      const arabic = await visibleTexts(page, path);
      const untranslated = arabic.filter((text) => french.has(text));
      expect(untranslated).toEqual([]);
      // And what is there is Arabic: most text carries Arabic letters.
      const withArabic = arabic.filter((t) => /[\u0600-\u06ff]/.test(t)).length;
      expect(withArabic / arabic.length).toBeGreaterThan(0.7);
    });
  }
});
