/**
 * TOTP for MFA (supabase/local/auth/mfa.ts): GoTrue's limits, RFC 6238 codes with HMAC-SHA1,
 * base32 secrets (RFC 4648, no padding) and the enrolment's QR code as SVG.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { correction, generate } from 'lean-qr';
import { toSvgSource } from 'lean-qr/extras/svg';

/** GoTrue's defaults (MFA_MAX_ENROLLED_FACTORS, MFA_CHALLENGE_EXPIRY_DURATION, …). */
export const MFA_LIMITS = {
  maxEnrolledFactors: 10,
  maxVerifiedFactors: 10,
  challengeExpirySeconds: 300,
  /** An unverified factor older than this is deleted at the next enrolment. */
  factorExpirySeconds: 300,
  /** TOTP: 6 digits, 30 s steps, one step of clock skew either way (pquerna/otp as GoTrue). */
  digits: 6,
  periodSeconds: 30,
  skewSteps: 1,
} as const;

// ---------------------------------------------------------------------------------------------
// TOTP (RFC 6238 with HMAC-SHA1) and base32 (RFC 4648, no padding)
// ---------------------------------------------------------------------------------------------

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP code of `secret` (base32) for the time step `counter`. */
export function totpAt(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = (hmac[hmac.length - 1] ?? 0) & 15;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** MFA_LIMITS.digits).padStart(MFA_LIMITS.digits, '0');
}

/** Whether `code` is the code of this step or of one step before or after it. */
export function totpValid(secret: string, code: string, nowMs = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const step = Math.floor(nowMs / 1000 / MFA_LIMITS.periodSeconds);
  let valid = false;
  for (let skew = -MFA_LIMITS.skewSteps; skew <= MFA_LIMITS.skewSteps; skew += 1) {
    // Every step is computed and compared in constant time: no early exit to time.
    const expected = Buffer.from(totpAt(secret, step + skew));
    if (timingSafeEqual(expected, Buffer.from(code))) valid = true;
  }
  return valid;
}

/** pquerna/otp's Key.URL(): the URI authenticator apps read from the QR code. */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account).replace(/%40/g, '@')}`;
  const query = new URLSearchParams({
    algorithm: 'SHA1',
    digits: String(MFA_LIMITS.digits),
    issuer,
    period: String(MFA_LIMITS.periodSeconds),
    secret,
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/** The QR code of `text` as an SVG document (GoTrue draws it with error correction H). */
export function qrSvg(text: string): string {
  const code = generate(text, { minCorrectionLevel: correction.H });
  return toSvgSource(code, { on: 'black', off: 'white', pad: 4, xmlDeclaration: false });
}
