/**
 * `npm run machine` (the first step of `npm test`): what the gate needs beyond npm packages.
 *
 * - a Chromium for the benchmarks and its headless shell for the end-to-end tests (Playwright's,
 *   Debian's, or CHROME_PATH);
 * - PostgreSQL server binaries with the plpgsql_check extension, for the API tests on PostgreSQL
 *   and the Supabase CLI check (`supabase db lint`).
 *
 * On a Debian machine as root it installs what is missing with apt-get (as .ci/run always did);
 * anywhere else it stops with the exact command to run. KIRAA_NO_INSTALL=1 only reports.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Debian packages that provide what the gate needs. */
export const PACKAGES = {
  chromium: ['chromium'],
  headlessShell: ['chromium-headless-shell'],
  postgres: ['postgresql-15', 'postgresql-15-plpgsql-check'],
} as const;

export type Findings = {
  chromium: boolean;
  headlessShell: boolean;
  postgres: boolean;
  plpgsqlCheck: boolean;
};

/** Debian packages to install for `findings`, in a stable order (none when all is there). */
export function missingPackages(findings: Findings): string[] {
  return [
    ...(findings.chromium ? [] : PACKAGES.chromium),
    ...(findings.headlessShell ? [] : PACKAGES.headlessShell),
    ...(findings.postgres && findings.plpgsqlCheck ? [] : PACKAGES.postgres),
  ];
}

/** The command that installs `packages` (prefixed with sudo when not root). */
export function installCommand(packages: readonly string[], root: boolean): string {
  const sudo = root ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

async function look(): Promise<Findings> {
  // Loaded here, not at the top: the unit test imports this file's pure part in a browser-like
  // environment.
  const { chromiumExecutable, hasHeadlessShell } = await import('../tests/e2e/support/browser.ts');
  const { postgresBinaries } = await import('../tests/support/postgres.ts');
  let chromium = true;
  try {
    chromiumExecutable();
  } catch {
    chromium = false;
  }
  const pg = postgresBinaries();
  const postgres = typeof pg !== 'string';
  const plpgsqlCheck = postgres && existsSync(join(pg.share, 'extension', 'plpgsql_check.control'));
  return { chromium, headlessShell: hasHeadlessShell(), postgres, plpgsqlCheck };
}

async function main(): Promise<void> {
  const before = await look();
  const packages = missingPackages(before);
  if (packages.length === 0) {
    console.info(
      'machine: Chromium, its headless shell and PostgreSQL with plpgsql_check are here.',
    );
    return;
  }
  const root = process.getuid?.() === 0;
  const command = installCommand(packages, root);
  const canInstall = root && process.env.KIRAA_NO_INSTALL !== '1' && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`machine: npm test needs ${packages.join(', ')}. Run:\n\n  ${command}\n`);
    process.exit(1);
  }
  console.info(`machine: installing ${packages.join(', ')} (${command})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`machine: apt-get ${args[0]} failed. Run it yourself:\n\n  ${command}\n`);
      process.exit(1);
    }
  }
  const after = missingPackages(await look());
  if (after.length > 0) {
    console.error(`machine: still missing after apt-get: ${after.join(', ')}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
