import type { Page } from '@playwright/test';

import { expect } from './fixtures.ts';

/**
 * The service worker registers once the first screen is idle, precaches the whole app, then takes
 * control of the page: a few seconds on a quiet machine, more than 10 s with another suite beside
 * it (looks.spec.ts's offline photos failed on the 10 s default under load, 2026-11-27).
 */
const WORKER_CONTROL_MS = 30_000;

/** Waits until the service worker controls `page`. */
export async function workerInControl(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), {
      timeout: WORKER_CONTROL_MS,
    })
    .toBe(true);
}
