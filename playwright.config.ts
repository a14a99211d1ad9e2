import { defineConfig } from '@playwright/test';

import { chromiumLaunchOptions } from './tests/e2e/support/browser.ts';

/**
 * End-to-end tests: real Chromium (Playwright's, or Debian's /usr/bin/chromium) against the
 * production build served on a free port and the real local stack (tests/e2e/support/
 * global-setup.ts). Specs import `test` from tests/e2e/support/fixtures.ts.
 */
// Several people run the specs at once in this checkout: each run writes its own artifacts
// (the workers inherit the variable, so they agree on the folder).
process.env.KIRAA_E2E_RUN ??= `${Date.now()}-${process.pid}`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/${process.env.KIRAA_E2E_RUN}`,
  globalSetup: './tests/e2e/support/global-setup.ts',
  // Whole journeys take 10–30 s on a quiet machine and three times that with another suite beside
  // them (load 15 on 2 cores): 60 s was passed there. A passing test is not slowed by a longer
  // limit; a failing one reports later. Steps keep their own 10 s limit (expect).
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two workers on the 2-core machines, in CI too: the specs share only the stack, and each one
  // makes its own accounts and bookings.
  workers: Number(process.env.KIRAA_E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions({}, { shell: true }),
    viewport: { width: 390, height: 844 },
    locale: 'fr-FR',
    // A zone other than Africa/Algiers, so time-zone bugs show.
    timezoneId: 'UTC',
    serviceWorkers: 'allow',
    // No trace by default: recording one (a DOM snapshot around every step) doubled the layout
    // audit's time and added a fifth to the rest. A failure keeps its screenshot and the page's
    // accessibility tree (error-context.md); for a trace, run again with `-- --trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
