/**
 * bcrypt password hashes, as GoTrue stores them in `auth.users.encrypted_password`. bcryptjs reads
 * the `$2a$` hashes pgcrypto's `crypt(…, gen_salt('bf'))` writes (the seed's demo accounts) as well
 * as its own `$2b$`.
 */
import bcrypt from 'bcryptjs';

export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

/** Whether the password matches; a missing or malformed hash never matches. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !/^\$2[abxy]\$\d\d\$/.test(hash)) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of a real comparison when there is no user to compare with, so the answer time
 * does not tell which emails have an account.
 */
export async function spendComparisonTime(password: string, cost: number): Promise<void> {
  dummyHash ??= bcrypt.hash('kiraa-timing-equalizer', cost);
  await bcrypt.compare(password, await dummyHash);
}

/** Hashes weaker than the configured cost are re-hashed after a successful sign-in. */
export function needsRehash(hash: string, cost: number): boolean {
  try {
    return bcrypt.getRounds(hash) < cost;
  } catch {
    return false;
  }
}
