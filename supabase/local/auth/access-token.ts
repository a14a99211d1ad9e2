/**
 * Access tokens (docs/auth.md, "Tokens and sessions"): GoTrue's claims, signed ES256 by the
 * project's current signing key with its `kid` in the header (supabase/local/signing-keys.ts),
 * as a hosted project with asymmetric keys signs them.
 */
import type { JwtClaims, Queryable, StackConfig } from '../context.ts';
import { signJwtEs256 } from '../jwt.ts';
import type { UserRow } from './users.ts';

export type AmrEntry = { method: string; timestamp: number };

export function issuer(config: StackConfig): string {
  return `${config.apiUrl.replace(/\/+$/, '')}/auth/v1`;
}

/** GoTrue's access-token claims for this user and session. */
export function accessTokenClaims(
  config: StackConfig,
  user: UserRow,
  sessionId: string,
  amr: AmrEntry[],
  aal: Aal,
  now = Math.floor(Date.now() / 1000),
): JwtClaims {
  return {
    aud: user.aud ?? 'authenticated',
    exp: now + config.jwtExpiry,
    iat: now,
    iss: issuer(config),
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
}

export type Aal = 'aal1' | 'aal2';

/** The session's assurance level: aal2 once a second factor was verified in it (GoTrue). */
export async function aalOf(q: Queryable, sessionId: string): Promise<Aal> {
  const { rows } = await q.query<{ aal: string | null }>(
    `select aal from auth.sessions where id = $1`,
    [sessionId],
  );
  return rows[0]?.aal === 'aal2' ? 'aal2' : 'aal1';
}

export async function amrOf(q: Queryable, sessionId: string): Promise<AmrEntry[]> {
  const { rows } = await q.query<{ method: string; at: number }>(
    `select authentication_method as method, extract(epoch from created_at)::bigint as at
       from auth.mfa_amr_claims where session_id = $1 order by created_at desc`,
    [sessionId],
  );
  return rows.map((r) => ({ method: r.method, timestamp: Number(r.at) }));
}

/** The token for these claims, signed by the current key. */
export function signAccessToken(claims: JwtClaims, config: StackConfig): string {
  return signJwtEs256(claims, config.signingKeys.current());
}
