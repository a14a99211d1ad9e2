import { describe, expect, it } from 'vitest';

import { installCommand, missingPackages } from './machine-check.ts';

describe('what a bare machine must install before npm test', () => {
  it('asks for nothing when Chromium and PostgreSQL with plpgsql_check are there', () => {
    expect(missingPackages({ chromium: true, postgres: true, plpgsqlCheck: true })).toEqual([]);
  });

  it('asks for PostgreSQL 15 with plpgsql_check when either is missing, and for Chromium', () => {
    expect(missingPackages({ chromium: true, postgres: true, plpgsqlCheck: false })).toEqual([
      'postgresql-15',
      'postgresql-15-plpgsql-check',
    ]);
    expect(missingPackages({ chromium: false, postgres: false, plpgsqlCheck: false })).toEqual([
      'chromium',
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
