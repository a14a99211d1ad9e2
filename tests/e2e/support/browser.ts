/**
 * Which Chromium the tests, benchmarks and scripts drive: Playwright's own browser when it is
 * installed, else Debian's, launched with flags that keep it quiet and offline from Google's
 * services. CHROME_PATH overrides both.
 *
 * The end-to-end tests take Chromium's headless shell (Debian's `chromium-headless-shell`, the
 * build Playwright itself runs headless tests in): the same engine without the desktop browser
 * around it, a quarter less time per test on the 2-core machines (docs/local-stack.md). The
 * benchmarks and Lighthouse measure the full browser a traveller runs.
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

/** Debian's binaries: the full browser, and the headless shell of the same version. */
const DEBIAN = {
  full: ['/usr/bin/chromium', '/usr/bin/chromium-browser'],
  shell: ['/usr/bin/chromium-headless-shell'],
};

function playwrightsOwn(): boolean {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    // Playwright's browser is not installed.
    return false;
  }
}

/**
 * The Chromium binary to use, or undefined for Playwright's bundled one (which picks its own
 * headless shell). `shell`: the headless shell when Debian's is there, else the full browser.
 */
export function chromiumExecutable({ shell = false } = {}): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (playwrightsOwn()) return undefined;
  for (const candidate of shell ? [...DEBIAN.shell, ...DEBIAN.full] : DEBIAN.full) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    'No Chromium found: install Debian’s `chromium` (apt-get install chromium), ' +
      'run `npx playwright install chromium`, or set CHROME_PATH.',
  );
}

/** Whether the end-to-end tests will run in a headless shell (see chromiumExecutable). */
export function hasHeadlessShell(): boolean {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return true;
  return playwrightsOwn() || DEBIAN.shell.some((path) => existsSync(path));
}

export function chromiumLaunchOptions(
  extra: LaunchOptions = {},
  { shell = false } = {},
): LaunchOptions {
  const executablePath = chromiumExecutable({ shell });
  return {
    ...(executablePath ? { executablePath } : {}),
    ...extra,
    args: [...CHROMIUM_FLAGS, ...(extra.args ?? [])],
  };
}
