/**
 * The second factor in tests: TOTP codes computed with the pinned `otpauth` package (not the
 * server's own code), and sign-in helpers that take a staff member to aal2 through supabase-js,
 * as the app does (docs/auth.md, "MFA (TOTP) and staff").
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';

/** The seed's demo admin's TOTP secret (supabase/seed.sql; public, local demo only). */
export const DEMO_ADMIN_TOTP_SECRET = 'KIRAADEMOSTAFFTOTPKIRAADEMOSTAFF';

/** The 6-digit code of `secret` (base32) at `timestamp`. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp });
}

/** Raises `client`'s session to aal2 with its verified TOTP factor whose secret is `secret`. */
export async function passSecondFactor(client: SupabaseClient, secret: string): Promise<void> {
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw error;
  const factor = data.totp.find((f) => f.status === 'verified');
  if (!factor) throw new Error('no verified TOTP factor to pass');
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totpCode(secret),
  });
  if (verified.error) throw verified.error;
}

/**
 * Signs `client` in with a password, then passes the second factor when `totpSecret` is given.
 * A verify anywhere ends the user's other aal1 sessions (GoTrue), so a parallel test signing the
 * same staff member in can end this one between the two steps: then it starts again.
 */
export async function signInWithFactor(
  client: SupabaseClient,
  email: string,
  password: string,
  totpSecret: string | null,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const { error } = await client.auth.signInWithPassword({ email, password });
    if (error) throw error;
    if (!totpSecret) return;
    try {
      await passSecondFactor(client, totpSecret);
      return;
    } catch (failure) {
      // supabase-js answers a session ended server-side with AuthSessionMissingError (getUser)
      // or the API's `session_not_found` (challenge, verify).
      const { code, name } = failure as { code?: string; name?: string };
      const ended =
        name === 'AuthSessionMissingError' ||
        code === 'session_not_found' ||
        code === 'refresh_token_not_found';
      if (attempt >= 5 || !ended) throw failure;
    }
  }
}
