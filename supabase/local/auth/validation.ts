/**
 * Input rules shared by sign-up, password change, recovery and the admin API: GoTrue's email
 * check and its password policy, set in supabase/config.toml (`minimum_password_length`,
 * `password_requirements`; Kiraa: 8 and `lower_upper_letters_digits_symbols`, docs/product.md §5).
 */
import type { PasswordRequirements, ProjectSettings } from '../settings.ts';
import { AuthFailure, badRequest } from './http.ts';

export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt only reads the first 72 bytes, so GoTrue refuses longer passwords. */
export const PASSWORD_MAX_BYTES = 72;

/** One character of each set is required (GoTrue's sets, in its order). */
export const PASSWORD_CHARACTER_SETS = [
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~',
] as const;

const [LOWER, UPPER, DIGITS, SYMBOLS] = PASSWORD_CHARACTER_SETS;

/** GoTrue's character sets for each `password_requirements` value (conf.PasswordRequiredCharacters). */
const REQUIRED_SETS: Record<PasswordRequirements, readonly string[]> = {
  '': [],
  letters_digits: [LOWER + UPPER, DIGITS],
  lower_upper_letters_digits: [LOWER, UPPER, DIGITS],
  lower_upper_letters_digits_symbols: [LOWER, UPPER, DIGITS, SYMBOLS],
};

export type PasswordPolicy = { minLength: number; requiredSets: readonly string[] };

/** The policy config.toml sets. */
export function passwordPolicy(
  auth: Pick<ProjectSettings['auth'], 'minimumPasswordLength' | 'passwordRequirements'>,
): PasswordPolicy {
  return {
    minLength: auth.minimumPasswordLength,
    requiredSets: REQUIRED_SETS[auth.passwordRequirements],
  };
}

/** Kiraa's policy (config.toml): 8 characters, lower, upper, digit, symbol. */
export const KIRAA_PASSWORD_POLICY: PasswordPolicy = {
  minLength: PASSWORD_MIN_LENGTH,
  requiredSets: REQUIRED_SETS.lower_upper_letters_digits_symbols,
};

export type WeakPasswordReason = 'length' | 'characters';

/** The reasons a password breaks the policy (empty when it is strong enough). */
export function passwordWeaknesses(
  password: string,
  policy: PasswordPolicy = KIRAA_PASSWORD_POLICY,
): WeakPasswordReason[] {
  const reasons: WeakPasswordReason[] = [];
  if ([...password].length < policy.minLength) reasons.push('length');
  const missesASet = policy.requiredSets.some(
    (set) => ![...password].some((char) => set.includes(char)),
  );
  if (missesASet) reasons.push('characters');
  return reasons;
}

/**
 * Throws GoTrue's `weak_password` error (422, with `weak_password.reasons`) or
 * `validation_failed` for a password bcrypt cannot hold.
 */
export function assertStrongPassword(
  password: string,
  policy: PasswordPolicy = KIRAA_PASSWORD_POLICY,
): void {
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) {
    throw badRequest(
      'validation_failed',
      `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`,
    );
  }
  const reasons = passwordWeaknesses(password, policy);
  if (reasons.length === 0) return;
  const messages: string[] = [];
  if (reasons.includes('length')) {
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  if (reasons.includes('characters')) {
    messages.push(
      `Password should contain at least one character of each: ${policy.requiredSets.join(', ')}.`,
    );
  }
  throw new AuthFailure(422, 'weak_password', messages.join(' '), {
    weak_password: { reasons },
  });
}

// checkmail's format (what GoTrue validates with): a local part, an @ and DNS labels.
const EMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's `validateEmail`: required, at most 255 characters, a valid format; lower-cased. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim();
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_FORMAT.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}
