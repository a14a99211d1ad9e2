/**
 * JSON Web Tokens as Supabase signs them: user access tokens ES256 with the project's current
 * signing key (`kid` in the header, public keys in the JWKS), the anon and service-role keys
 * HS256 with the legacy JWT secret (docs/auth.md, "Signing keys"). Shared by the gateway (API
 * keys), auth (access tokens), storage (signed URLs) and the Edge Functions' `verify_jwt`.
 */
import { createHmac, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

import type { JwtClaims } from './context.ts';

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

function signature(data: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${signature(body, secret).toString('base64url')}`;
}

/** An ES256 token: `{alg: 'ES256', kid, typ: 'JWT'}`, signature r‖s (JWS, RFC 7518 §3.4). */
export function signJwtEs256(
  claims: Record<string, unknown>,
  key: { kid: string; privateKey: KeyObject },
): string {
  const header = base64url(JSON.stringify({ alg: 'ES256', kid: key.kid, typ: 'JWT' }));
  const body = `${header}.${base64url(JSON.stringify(claims))}`;
  const sig = sign('sha256', Buffer.from(body), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${body}.${sig.toString('base64url')}`;
}

/**
 * What verifies tokens: the legacy secret (HS256) and the public keys of the JWKS by `kid`
 * (supabase/local/signing-keys.ts). A bare string is the secret alone (HS256 only).
 */
export type JwtVerifier = {
  secret: string;
  publicKey(kid: string): KeyObject | null;
};

export type JwtFailure = 'malformed' | 'bad_signature' | 'unknown_key' | 'expired';

const MESSAGES: Record<JwtFailure, string> = {
  malformed: 'token is malformed',
  bad_signature: 'signature is invalid',
  unknown_key: 'the signing key is not in the JWKS',
  expired: 'token is expired',
};

export class JwtError extends Error {
  constructor(readonly reason: JwtFailure) {
    super(MESSAGES[reason]);
  }
}

function checkHs256(header: string, payload: string, sig: string, secret: string): void {
  const expected = signature(`${header}.${payload}`, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError('bad_signature');
  }
}

/**
 * Verifies a token and returns its claims, as GoTrue and PostgREST do: ES256 with the JWKS key
 * its `kid` names, HS256 with the legacy secret; any other `alg` (`none`, RS256, HS256 keyed by
 * a public key …) is refused. Throws JwtError when the token does not have three base64url
 * parts, names an unknown key, has a wrong signature or is past its `exp`.
 */
export function verifyJwt<T = JwtClaims>(
  token: string,
  keys: string | JwtVerifier,
  nowSeconds = Math.floor(Date.now() / 1000),
): T {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p) || p === '')) {
    throw new JwtError('malformed');
  }
  const [header, payload, sig] = parts as [string, string, string];
  let parsedHeader: { alg?: unknown; kid?: unknown };
  let claims: Record<string, unknown>;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed');
  }
  if (typeof parsedHeader !== 'object' || parsedHeader === null) throw new JwtError('malformed');
  if (typeof claims !== 'object' || claims === null) throw new JwtError('malformed');
  const verifier = typeof keys === 'string' ? { secret: keys, publicKey: () => null } : keys;
  if (parsedHeader.alg === 'HS256') {
    checkHs256(header, payload, sig, verifier.secret);
  } else if (parsedHeader.alg === 'ES256') {
    const kid = typeof parsedHeader.kid === 'string' ? parsedHeader.kid : '';
    const key = kid ? verifier.publicKey(kid) : null;
    if (!key) throw new JwtError('unknown_key');
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      {
        key,
        dsaEncoding: 'ieee-p1363',
      },
      Buffer.from(sig, 'base64url'),
    );
    if (!ok) throw new JwtError('bad_signature');
  } else {
    throw new JwtError('malformed');
  }
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) {
    throw new JwtError('expired');
  }
  return claims as T;
}

/** Claims without verifying them (only for tokens we already verified). */
export function decodeJwt<T = JwtClaims>(token: string): T {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
}
