import type { Page } from '@playwright/test';

import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';

/** A seeded, active car (supabase/seed.sql). */
const CAR_SLUG = 'renault-clio-5-2023';

const pages: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
  { path: '/home', ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible() },
  {
    path: '/cars',
    // The list shows once the catalogue has synced into IndexedDB.
    ready: (page) => expect(page.locator(`a[href="/cars/${CAR_SLUG}"]`).first()).toBeVisible(),
  },
  {
    path: `/cars/${CAR_SLUG}`,
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toContainText('Clio'),
  },
  { path: '/qa', ready: (page) => expect(page.getByTestId('faq-list')).toBeVisible() },
  {
    path: '/contacts',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

for (const locale of ['fr', 'ar'] as const) {
  for (const mode of ['light', 'dark'] as const) {
    test.describe(`accessibility (${locale}, ${mode})`, () => {
      test.beforeEach(async ({ page }) => {
        await page.addInitScript(
          ({ l, m }) => {
            localStorage.setItem('locale', l);
            localStorage.setItem('theme', JSON.stringify({ mode: m }));
          },
          { l: locale, m: mode },
        );
      });

      for (const { path, ready } of pages) {
        test(`${path} has no serious or critical axe violation`, async ({ page }) => {
          await page.goto(path);
          await ready(page);
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          await expectAccessible(page);
        });
      }
    });
  }
}
