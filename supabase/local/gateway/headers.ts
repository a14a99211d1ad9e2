/**
 * The gateway's HTTP headers: CORS (as Supabase's Kong configures it), gzip negotiation, `Vary`,
 * the API key in URLs, the client's address, the open routes, JSON answers.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

import type { Refusal } from './gateway-guards.ts';

/** The request headers supabase-js sends (Supabase's CORS configuration). */
export const ALLOWED_HEADERS = [
  'authorization',
  'apikey',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'prefer',
  'range',
  'accept',
  'accept-profile',
  'content-profile',
  'x-upsert',
  'x-metadata',
  'cache-control',
  'x-retry-count',
];

export const EXPOSED_HEADERS = [
  'content-range',
  'content-length',
  'content-location',
  'content-profile',
  'content-type',
  'etag',
  'location',
  'preference-applied',
  'range-unit',
  'x-supabase-api-version',
];

export const ALLOWED_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS';

/** Below this many bytes (as announced by `content-length`) gzip is not worth it. */
export const GZIP_MIN_BYTES = 1024;

/** JSON (`application/json`, `application/vnd.pgrst.object+json`, `application/geo+json`…) and text. */
export const COMPRESSIBLE_TYPE = /^\s*(?:text\/[^;\s]+|application\/(?:[^;\s]*\+)?json)\s*(?:;|$)/i;

/**
 * Whether an `Accept-Encoding` header accepts gzip: an explicit `gzip` (or `x-gzip`) with a
 * non-zero q decides; otherwise `*` with a non-zero q does. No header: no.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim());
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([\d.]+)$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (Number.isNaN(q)) q = 0;
    const name = coding.toLowerCase();
    if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === '*') any = Math.max(any ?? 0, q);
  }
  return (gzip ?? any ?? 0) > 0;
}

/** Comma-joins `vary` values, keeping each field name once (case-insensitively). */
export function mergeVary(...values: (number | string | readonly string[] | undefined)[]): string {
  const names = new Map<string, string>();
  for (const value of values) {
    if (value === undefined) continue;
    const list = Array.isArray(value) ? value : [String(value)];
    for (const item of list) {
      for (const name of String(item).split(',')) {
        const trimmed = name.trim();
        if (trimmed && !names.has(trimmed.toLowerCase())) names.set(trimmed.toLowerCase(), trimmed);
      }
    }
  }
  return [...names.values()].join(', ');
}

/**
 * The query string as the client sent it, less its `apikey` parameters: the bytes are kept
 * (re-serialising would turn each invalid %XX into a 9-character replacement character).
 */
export function withoutApiKey(rawUrl: string): string {
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '';
  return query
    .split('&')
    .filter((part) => part !== '' && !/^apikey(=|$)/.test(part))
    .join('&');
}

/** localhost dev origins on any port (Vite, Playwright, preview servers). */
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

export function isAllowedOrigin(origin: string, appOrigins: string[]): boolean {
  return appOrigins.includes(origin) || LOCAL_ORIGIN.test(origin);
}

export function refuse(res: ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, refusal.body, refusal.headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Routes that need no API key, as in Supabase's Kong configuration. */
export function isOpenRoute(method: string, path: string): boolean {
  if (path === '/health' || path === '/mailbox' || path.startsWith('/mailbox/')) return true;
  if (path === '/push' || path.startsWith('/push/')) return true;
  // The Edge Functions check the caller's JWT themselves (per function, `verify_jwt`).
  if (path.startsWith('/functions/v1/')) return true;
  if (method !== 'GET' && method !== 'HEAD') return false;
  return (
    path === '/auth/v1/verify' ||
    // The browser is sent here by signInWithOAuth, without headers (Kong's auth-v1-open).
    path === '/auth/v1/authorize' ||
    path.startsWith('/storage/v1/object/public/') ||
    path.startsWith('/storage/v1/object/sign/')
  );
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The `X-Forwarded-For` the client sent (several headers joined, as proxies read them). */
export function sentForwardedFor(req: IncomingMessage): string | undefined {
  const raw = req.headers['x-forwarded-for'];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  return value?.trim() ? value.trim() : undefined;
}

/**
 * The client's address as this gateway sees it: the socket's peer; with `trust` (another proxy in
 * front, or tests that simulate several clients), the rightmost entry of the `X-Forwarded-For`
 * it sent — the one a proxy in front appended, as on hosted Supabase (docs/decisions.md).
 */
export function clientAddress(req: IncomingMessage, trust: boolean): string {
  if (trust) {
    const forwarded = sentForwardedFor(req)?.split(',').pop()?.trim();
    if (forwarded) return forwarded;
  }
  const peer = req.socket.remoteAddress ?? '';
  return peer.startsWith('::ffff:') ? peer.slice(7) : peer;
}
