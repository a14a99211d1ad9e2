import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from '@playwright/test';

import { expect, test } from './support/fixtures.ts';

/** Waits until the page's worker is activated and controls the page. */
async function expectControlledByWorker(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return `${registration.active?.state}/${!!navigator.serviceWorker.controller}`;
        }),
      { timeout: 30_000 },
    )
    .toBe('activated/true');
}

test.describe('installable, offline-first app', () => {
  test('the manifest is complete and its icons and screenshots exist', async ({
    page,
    request,
  }) => {
    await page.goto('/home');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await request.get(href!);
    expect(response.headers()['content-type']).toContain('application/manifest+json');
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      name: expect.stringContaining('Kiraa'),
      short_name: 'Kiraa',
      start_url: '/home',
      scope: '/',
      display: 'standalone',
      lang: 'fr',
      dir: 'ltr',
      theme_color: expect.stringMatching(/^#/),
      background_color: expect.stringMatching(/^#/),
    });
    const icons = manifest.icons as Array<{ src: string; sizes: string; purpose?: string }>;
    for (const [sizes, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]) {
      expect(icons.some((i) => i.sizes === sizes && (i.purpose ?? 'any') === purpose)).toBe(true);
    }
    const screenshots = manifest.screenshots as Array<{ src: string; form_factor: string }>;
    expect(screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const { src } of [...icons, ...screenshots]) {
      expect((await request.get(src)).status(), src).toBe(200);
    }
  });

  test('the service worker activates, then /qa and other pages load offline', async ({
    page,
    context,
  }) => {
    await page.goto('/qa');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes');
    await expectControlledByWorker(page);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes');
    await expect(page.getByTestId('faq-list').getByRole('listitem').first()).toBeVisible();

    // A deep link never opened before comes from the precache too.
    await page.goto('/contacts');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contacts');
    await page.goto('/terms#deposit');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Conditions générales de location',
    );
    await context.setOffline(false);
  });

  test('car pictures are cached by the worker and shown offline', async ({ page, context }) => {
    await page.goto('/cars/renault-clio-5-2023');
    await expectControlledByWorker(page);
    // Loaded once the page is controlled, so the worker sees the request.
    await page.reload();
    const picture = page.locator('img[src^="/cars/renault-clio-5-2023"]').first();
    await expect(picture).toBeVisible();
    const src = await picture.getAttribute('src');
    await expect
      .poll(() =>
        page.evaluate(async (path) => {
          const cache = await caches.open('kiraa-car-images');
          return (await cache.keys()).some((request) => new URL(request.url).pathname === path);
        }, src),
      )
      .toBe(true);

    await context.setOffline(true);
    await page.reload();
    await expect(picture).toBeVisible();
    expect(
      await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await context.setOffline(false);
  });

  test('a new version is offered with a toast; "Recharger" switches to it', async ({
    page,
    e2e,
  }) => {
    await page.goto('/qa');
    await expectControlledByWorker(page);

    // Publish a new build of the worker (a byte change is a new version for the browser).
    const swPath = join(e2e.appDir, 'sw.js');
    const original = readFileSync(swPath, 'utf8');
    try {
      appendFileSync(swPath, `\n// e2e update ${Date.now()}\n`);
      await page.evaluate(() => {
        (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
        return navigator.serviceWorker.getRegistration().then((r) => r?.update());
      });
      const toast = page
        .getByTestId('toast')
        .filter({ hasText: 'Une nouvelle version de Kiraa est disponible.' });
      await expect(toast).toBeVisible({ timeout: 20_000 });
      // The page reloads under the new worker.
      const reloaded = page.waitForEvent('load');
      await toast.getByRole('button', { name: 'Recharger' }).click();
      await reloaded;
      expect(
        await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate),
      ).toBeUndefined();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes');
      expect(
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return { waiting: !!registration?.waiting, active: registration?.active?.state };
        }),
      ).toEqual({ waiting: false, active: 'activated' });
    } finally {
      writeFileSync(swPath, original);
    }
  });

  test('the install button appears when the browser offers it and hides once used', async ({
    page,
  }) => {
    await page.goto('/qa');
    await expect(page.getByTestId('install-button')).toHaveCount(0);
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
        prompt: () => Promise<void>;
        userChoice: Promise<{ outcome: string }>;
      };
      event.prompt = async () => {
        (window as unknown as { prompted: boolean }).prompted = true;
      };
      event.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(event);
    });
    const install = page.getByTestId('install-button');
    await expect(install).toBeVisible();
    await install.click();
    await expect(install).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(
      true,
    );
  });
});
