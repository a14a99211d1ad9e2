/**
 * The session's claims as the app reads them: supabase-js `getClaims()`, which verifies the
 * access token's ES256 signature against the project's JWKS (docs/auth.md, "Signing keys";
 * auth-js caches the JWKS 10 minutes). Offline, or when the JWKS cannot be fetched, the stored
 * session's level is used unverified: it only decides which screen shows, the database decides
 * what staff may do (`public.is_admin()` needs aal2 in the token PostgREST verifies).
 */
import { isAuthRetryableFetchError, type SupabaseClient } from '@supabase/supabase-js';

export type SessionLevel = {
  aal: 'aal1' | 'aal2' | null;
  /** The app role (`app_metadata.role`), '' when none. */
  role: string;
  /** Whether the signature was checked (false: offline fallback, or no session). */
  verified: boolean;
};

const NONE: SessionLevel = { aal: null, role: '', verified: false };

function levelOf(value: unknown): SessionLevel['aal'] {
  return value === 'aal2' ? 'aal2' : value === 'aal1' ? 'aal1' : null;
}

export async function sessionLevel(auth: SupabaseClient['auth']): Promise<SessionLevel> {
  const { data, error } = await auth.getClaims();
  if (data) {
    const appMetadata = data.claims.app_metadata as { role?: unknown } | undefined;
    return {
      aal: levelOf(data.claims.aal),
      role: typeof appMetadata?.role === 'string' ? appMetadata.role : '',
      verified: true,
    };
  }
  if (!error || !isAuthRetryableFetchError(error)) return NONE;
  const stored = await auth.mfa.getAuthenticatorAssuranceLevel();
  const { data: session } = await auth.getSession();
  const role = session.session?.user.app_metadata?.role;
  return {
    aal: levelOf(stored.data?.currentLevel),
    role: typeof role === 'string' ? role : '',
    verified: false,
  };
}
