/**
 * The web app manifest's screenshots (public/screenshots), taken from the real app: the
 * production build against the local stack with its seed data, in Chromium.
 * Run after a visible change of the home page: `npx tsx scripts/take-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import { chromium } from 'playwright-core';

import { chromiumLaunchOptions } from '../tests/e2e/support/browser.ts';
import { readE2eEnv } from '../tests/e2e/support/env.ts';
import globalSetup from '../tests/e2e/support/global-setup.ts';

const out = resolve(import.meta.dirname, '../public/screenshots');
mkdirSync(out, { recursive: true });

const shots = [
  { file: 'home-narrow.png', width: 390, height: 844, scale: 1 },
  { file: 'home-wide.png', width: 1280, height: 800, scale: 1 },
];

const teardown = await globalSetup();
// The French UI of native controls (date and time pickers) too.
const browser = await chromium.launch(chromiumLaunchOptions({ args: ['--lang=fr-FR'] }));
try {
  const { appUrl } = readE2eEnv();
  for (const shot of shots) {
    const context = await browser.newContext({
      viewport: { width: shot.width, height: shot.height },
      deviceScaleFactor: shot.scale,
      locale: 'fr-FR',
      colorScheme: 'light',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await page.goto(`${appUrl}/home`);
    // Wait for the catalogue to sync (the featured cars) and the pictures in view to load.
    await page.getByTestId('featured-cars').waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    // Pictures in view (lazy ones below the fold never load, so they are not awaited).
    await page.waitForFunction(
      () =>
        [...document.images]
          .filter((img) => img.getBoundingClientRect().top < innerHeight)
          .every((img) => img.complete),
      undefined,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: resolve(out, shot.file) });
    console.info(`public/screenshots/${shot.file} (${shot.width}×${shot.height})`);
    await context.close();
  }
} finally {
  await browser.close();
  await teardown();
}
