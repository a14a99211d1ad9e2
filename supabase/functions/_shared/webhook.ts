/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), as GoTrue signs its HTTP hooks:
 * `webhook-signature` = `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` (several may be
 * given), keyed by the secret `v1,whsec_<base64>`.
 */
import { safeEqual } from './http.ts';

/** How far `webhook-timestamp` may be from now (replays of an old request are refused). */
export const TOLERANCE_SECONDS = 5 * 60;

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

export async function sign(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.replace(/^v1,/, '').replace(/^whsec_/, '')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    new TextEncoder().encode(`${id}.${timestamp}.${body}`),
  );
  return `v1,${toBase64(mac)}`;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

export async function verifyWebhook(
  secret: string,
  headers: Headers,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<Verdict> {
  const id = headers.get('webhook-id');
  const timestamp = Number(headers.get('webhook-timestamp'));
  const signatures = headers.get('webhook-signature');
  if (!id || !signatures || !Number.isInteger(timestamp)) {
    return { ok: false, reason: 'missing webhook headers' };
  }
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) {
    return { ok: false, reason: 'webhook timestamp out of tolerance' };
  }
  const expected = await sign(secret, id, timestamp, body);
  // "v1,<sig> v1,<sig>" (the standard) or "v1,<sig>, v1,<sig>" (GoTrue joins with ", ").
  const given = signatures.match(/v1,[A-Za-z0-9+/=]+/g) ?? [];
  const match = given.some((signature) => safeEqual(signature, expected));
  return match ? { ok: true } : { ok: false, reason: 'no matching signature' };
}
