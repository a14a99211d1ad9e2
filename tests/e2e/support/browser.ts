/**
 * Which Chromium the tests, benchmarks and scripts drive: Playwright's own browser when it is
 * installed, else Debian's /usr/bin/chromium (or CHROME_PATH), launched with flags that keep it
 * quiet and offline from Google's services.
 */
import { existsSync } from 'node:fs';

import { chromium, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium binary to use, or undefined for Playwright's bundled one. */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // Playwright's browser is not installed.
  }
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    'No Chromium found: install Debian’s `chromium` (apt-get install chromium), ' +
      'run `npx playwright install chromium`, or set CHROME_PATH.',
  );
}

export function chromiumLaunchOptions(extra: LaunchOptions = {}): LaunchOptions {
  const executablePath = chromiumExecutable();
  return {
    ...(executablePath ? { executablePath } : {}),
    ...extra,
    args: [...CHROMIUM_FLAGS, ...(extra.args ?? [])],
  };
}
