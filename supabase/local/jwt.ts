/**
 * HS256 JSON Web Tokens, as Supabase signs them with the project's JWT secret.
 * Shared by the gateway (API keys), auth (access tokens) and storage (signed URLs).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

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

export type JwtFailure = 'malformed' | 'bad_signature' | 'expired';

export class JwtError extends Error {
  constructor(readonly reason: JwtFailure) {
    super(
      reason === 'expired'
        ? 'token is expired'
        : reason === 'bad_signature'
          ? 'signature is invalid'
          : 'token is malformed',
    );
  }
}

/**
 * Verifies an HS256 token and returns its claims. Throws JwtError when the token does not have
 * three base64url parts, is not HS256, has a wrong signature or is past its `exp`.
 */
export function verifyJwt<T = JwtClaims>(
  token: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): T {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p) || p === '')) {
    throw new JwtError('malformed');
  }
  const [header, payload, sig] = parts as [string, string, string];
  let parsedHeader: { alg?: string };
  let claims: Record<string, unknown>;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed');
  }
  if (parsedHeader.alg !== 'HS256' || typeof claims !== 'object' || claims === null) {
    throw new JwtError('malformed');
  }
  const expected = signature(`${header}.${payload}`, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError('bad_signature');
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
