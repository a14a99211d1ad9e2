/**
 * Renders the app icons from the SVG logo (public/icons/logo.svg, maskable.svg) with Chromium:
 * the PNGs of the web app manifest, the Apple touch icon and the favicon.
 * Run after changing the logo: `npx tsx scripts/generate-icons.ts` (commit the PNGs).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

import { chromiumLaunchOptions } from '../tests/e2e/support/browser.ts';

const icons = resolve(import.meta.dirname, '../public/icons');

/** [source svg, output png, size, background] */
const outputs: Array<[string, string, number, string | null]> = [
  ['logo.svg', 'icon-192.png', 192, null],
  ['logo.svg', 'icon-512.png', 512, null],
  ['maskable.svg', 'maskable-192.png', 192, null],
  ['maskable.svg', 'maskable-512.png', 512, null],
  // iOS shows transparency as black: the full-bleed variant.
  ['maskable.svg', 'apple-touch-icon.png', 180, null],
  ['logo.svg', 'favicon-32.png', 32, null],
];

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const [source, output, size, background] of outputs) {
    const svg = readFileSync(join(icons, source), 'utf8');
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:${background ?? 'transparent'}">` +
        `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" ` +
        `width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    await page.screenshot({
      path: join(icons, output),
      omitBackground: background === null,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    console.info(`public/icons/${output} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
