/**
 * HTTP plumbing of the auth API: GoTrue's error bodies, JSON in and out, the client IP and the
 * bearer token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

import { holdsUnstorableText, jsonTooDeep } from '../gateway/gateway-guards.ts';

/** The header supabase-js sends; GoTrue answers with the version it used. */
const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

/** Request bodies larger than this are refused (user metadata is small). */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * An error GoTrue would answer with: an HTTP status, a stable `error_code` (the `code` that
 * supabase-js puts on AuthApiError) and a human message.
 */
export class AuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level body fields, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AuthFailure';
  }
}

export const badRequest = (code: string, message: string) => new AuthFailure(400, code, message);
export const unauthorized = (code: string, message: string) => new AuthFailure(401, code, message);
export const forbidden = (code: string, message: string) => new AuthFailure(403, code, message);
export const notFound = (code: string, message: string) => new AuthFailure(404, code, message);
export const unprocessable = (code: string, message: string) => new AuthFailure(422, code, message);
export const tooManyRequests = (code: string, message: string) =>
  new AuthFailure(429, code, message);
export const internalError = (message: string) =>
  new AuthFailure(500, 'unexpected_failure', message);

/** Whether the client asked for the 2024-01-01 API (string error codes in `code`). */
function wantsVersion2024(req: IncomingMessage): boolean {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return value >= API_VERSION_2024;
}

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  // Tokens and user data must never sit in a cache.
  'cache-control': 'no-store',
} as const;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}

export function sendNoContent(res: ServerResponse): void {
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

export function sendRedirect(res: ServerResponse, location: string): void {
  res.writeHead(303, {
    location,
    'cache-control': 'no-store',
    // The fragment carries tokens: never leak the URL to the next page.
    'referrer-policy': 'no-referrer',
    'content-length': '0',
  });
  res.end();
}

/**
 * GoTrue's error body (internal/api/errors.go). With `X-Supabase-Api-Version: 2024-01-01` (what
 * supabase-js 2 sends): `{code: 'weak_password', message}` and the version header echoed; without
 * it, the older `{code: 422, error_code, msg}`. Both carry the code in `x-sb-error-code` when
 * there is one (a hook's error has none: its body code is `unknown`, or `unexpected_failure`),
 * except `weak_password` with 2024-01-01: GoTrue's handleResponseErrorWeakPassword sets the
 * header only on the older branch.
 */
export function sendFailure(req: IncomingMessage, res: ServerResponse, failure: AuthFailure): void {
  const code = failure.code || (failure.status >= 500 ? 'unexpected_failure' : 'unknown');
  const body = wantsVersion2024(req)
    ? { code, message: failure.message, ...failure.extra }
    : { code: failure.status, error_code: code, msg: failure.message, ...failure.extra };
  const headers = versionHeaders(req);
  const weakPassword2024 = failure.code === 'weak_password' && wantsVersion2024(req);
  if (failure.code && !weakPassword2024) headers['x-sb-error-code'] = failure.code;
  sendJson(res, failure.status, body, headers);
}

/** Sets the API version header on a successful answer when the client asked for it. */
export function versionHeaders(req: IncomingMessage): Record<string, string> {
  return wantsVersion2024(req) ? { [API_VERSION_HEADER]: API_VERSION_2024 } : {};
}

/** Reads and parses a JSON object body; an empty body is `{}`. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new AuthFailure(413, 'request_too_large', 'Request body is too large');
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  // Nested deeper than any real body: refused before it can reach the database.
  if (jsonTooDeep(text)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: nested too deep`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object');
  }
  if (holdsUnstorableText(parsed)) {
    throw badRequest(
      'validation_failed',
      'The request holds a NUL character or a lone surrogate, which cannot be stored.',
    );
  }
  return parsed as Record<string, unknown>;
}

function normalizeIp(value: string): string | null {
  const trimmed = value.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const ip = mapped?.[1] ?? trimmed;
  return isIP(ip) ? ip : null;
}

/**
 * The client's IP address. The gateway in front of this API appends the address it accepted the
 * connection from to `X-Forwarded-For`, so the last entry is the one a client cannot forge;
 * without the header (the handler mounted directly), the socket's address.
 */
export function clientIp(req: IncomingMessage): string {
  const raw = req.headers['x-forwarded-for'];
  const header = Array.isArray(raw) ? raw.join(',') : raw;
  if (header) {
    const last = header.split(',').pop();
    const ip = last ? normalizeIp(last) : null;
    if (ip) return ip;
  }
  return normalizeIp(req.socket.remoteAddress ?? '') ?? 'unknown';
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** A string field of a parsed body, trimmed; '' when absent or not a string. */
export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A JSON object field of a request body, or null when absent; anything else is refused. */
export function objectField(
  body: Record<string, unknown>,
  name: string,
): Record<string, unknown> | null | 'invalid' {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'invalid';
  return value as Record<string, unknown>;
}
