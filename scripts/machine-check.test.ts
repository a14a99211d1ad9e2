import { describe, expect, it } from 'vitest';

import { installCommand, missingPackages } from './machine-check.ts';

describe('what a bare machine must install before npm test', () => {
  const all = { chromium: true, headlessShell: true, postgres: true, plpgsqlCheck: true };

  it('asks for nothing when Chromium, its headless shell and PostgreSQL with plpgsql_check are there', () => {
    expect(missingPackages(all)).toEqual([]);
  });

  it('asks for the headless shell alone when only it is missing (the e2e tests run in it)', () => {
    expect(missingPackages({ ...all, headlessShell: false })).toEqual(['chromium-headless-shell']);
  });

  it('asks for PostgreSQL 15 with plpgsql_check when either is missing, and for Chromium', () => {
    expect(missingPackages({ ...all, plpgsqlCheck: false })).toEqual([
      'postgresql-15',
      'postgresql-15-plpgsql-check',
    ]);
    expect(
      missingPackages({
        chromium: false,
        headlessShell: false,
        postgres: false,
        plpgsqlCheck: false,
      }),
    ).toEqual([
      'chromium',
      'chromium-headless-shell',
      'postgresql-15',
      'postgresql-15-plpgsql-check',
    ]);
  });

  it('prints a command a user can paste, with sudo when not root', () => {
    expect(installCommand(['chromium'], true)).toBe(
      'apt-get update && apt-get install -y --no-install-recommends chromium',
    );
    expect(installCommand(['chromium'], false)).toBe(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium',
    );
  });
});
