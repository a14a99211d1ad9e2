import { describe, expect, it } from 'vitest';

import { AuthFailure } from './http.ts';
import { assertStrongPassword, normalizeEmail, passwordWeaknesses } from './validation.ts';

function failure(run: () => unknown): AuthFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof AuthFailure) return error;
    throw error;
  }
  throw new Error('expected an AuthFailure');
}

describe('password policy (8+ characters, lower, upper, digit, symbol)', () => {
  it.each([
    ['Kiraa2026!', []],
    ['Aa1!aaaa', []],
    ['Aa1!aaa', ['length']],
    ['kiraa2026!', ['characters']],
    ['KIRAA2026!', ['characters']],
    ['Kiraa-deux!', ['characters']],
    ['Kiraa20260', ['characters']],
    // Accented letters and spaces are not GoTrue symbols.
    ['Élodie 2026é', ['characters']],
    ['', ['length', 'characters']],
  ])('%j → %j', (password, reasons) => {
    expect(passwordWeaknesses(password)).toEqual(reasons);
  });

  it('counts characters, not bytes, for the minimum length', () => {
    expect(passwordWeaknesses('Éé1!Éé1!')).toEqual(['characters']);
    expect(passwordWeaknesses('Aé1!éé')).toContain('length');
  });

  it("throws GoTrue's weak_password error with the reasons and both messages", () => {
    const error = failure(() => assertStrongPassword('abc'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('weak_password');
    expect(error.extra).toEqual({ weak_password: { reasons: ['length', 'characters'] } });
    expect(error.message).toBe(
      'Password should be at least 8 characters. Password should contain at least one character of each: ' +
        'abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789, !@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~.',
    );
    expect(() => assertStrongPassword('Kiraa2026!')).not.toThrow();
  });

  it('refuses passwords bcrypt would truncate (over 72 bytes)', () => {
    const long = `Aa1!${'x'.repeat(69)}`;
    expect(failure(() => assertStrongPassword(long))).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
    expect(() => assertStrongPassword(`Aa1!${'x'.repeat(68)}`)).not.toThrow();
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases a valid address', () => {
    expect(normalizeEmail('  Amine.Kaci+loc@Kiraa.DZ ')).toBe('amine.kaci+loc@kiraa.dz');
  });

  it.each([
    ['', 'An email address is required'],
    ['   ', 'An email address is required'],
    ['no-at-sign', 'Unable to validate email address: invalid format'],
    ['two@@kiraa.dz', 'Unable to validate email address: invalid format'],
    ['space in@kiraa.dz', 'Unable to validate email address: invalid format'],
    ['dash@-kiraa.dz', 'Unable to validate email address: invalid format'],
    [`${'a'.repeat(250)}@kiraa.dz`, 'An email address is too long'],
  ])('refuses %j: %s', (raw, message) => {
    expect(failure(() => normalizeEmail(raw))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message,
    });
  });
});
