/**
 * The `test` of every spec: Playwright's, with `baseURL` set to the built app of the global
 * setup and an `e2e` fixture giving the stack's URLs and keys.
 * Usage: `import { expect, test } from './support/fixtures';`
 */
import { test as base } from '@playwright/test';

import { readE2eEnv, type E2eEnv } from './env.ts';

// Playwright reads a fixture's dependencies from its destructured first argument (none here).
/* eslint-disable no-empty-pattern */
export const test = base.extend<{ e2e: E2eEnv }>({
  baseURL: async ({}, use) => use(readE2eEnv().appUrl),
  e2e: async ({}, use) => use(readE2eEnv()),
});
/* eslint-enable no-empty-pattern */

export { expect } from '@playwright/test';
