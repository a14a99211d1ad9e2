/**
 * The staff's second factor (docs/auth.md, "MFA (TOTP) and staff"): the session's level, a new
 * TOTP factor, and verifying a code, through supabase-js.
 */
import { sessionLevel } from '@/infra/claims';
import { supabase } from '@/infra/supabase';

export type FactorFailure = 'wrong' | 'limit' | 'network';
const factorFailure = ({ status }: { status?: number }): FactorFailure =>
  status === 429 ? 'limit' : status ? 'wrong' : 'network';

/**
 * The session's level, from its verified claims (getClaims; the stored session offline), and the
 * verified TOTP factor.
 */
export async function assurance(): Promise<{ aal2: boolean; factorId: string | null }> {
  const level = await sessionLevel(supabase.auth);
  const { data } = await supabase.auth.getSession();
  const factor = data.session?.user.factors?.find((f) => f.status === 'verified');
  return { aal2: level.aal === 'aal2', factorId: factor?.id ?? null };
}

/** A new TOTP factor: the server's QR code (a data URI) and the secret to type by hand. */
export async function enrolTotp() {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  if (error || !data) return { ok: false as const, failure: factorFailure(error ?? {}) };
  const { qr_code: qrCode, secret } = data.totp;
  return { ok: true as const, factorId: data.id, qrCode, secret };
}

/** Challenges the factor and verifies `code`: the session becomes aal2, or why not. */
export async function verifyTotp(factorId: string, code: string): Promise<FactorFailure | null> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  // The session ended (a verify elsewhere ends aal1 sessions): sign in again, not "wrong code".
  const ended = error?.code === 'session_not_found' || error?.name === 'AuthSessionMissingError';
  if (ended) await supabase.auth.signOut({ scope: 'local' });
  return error ? factorFailure(error) : null;
}
