/**
 * What keeps the gateway up and honest under abuse (docs/local-stack.md, "Abuse"): a cap on
 * request bodies, a rate limit on anonymous writes per client address, and a 4xx for URLs PostgREST
 * would answer with headers our proxy cannot read. (GET on a function that writes is refused in
 * SQL, by PostgREST's pre-request hook: authz.check_request, the same on hosted.)
 */
import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';

import { verifyJwt, type JwtVerifier } from '../jwt.ts';

/** The largest request body /rest/v1, /auth/v1 and /functions/v1 take (a booking is ~2 KB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The longest URL /rest/v1 takes. PostgREST echoes the path and query in `Content-Location`,
 * re-encoded (a `,` becomes `%2C`): 8 KB stay well under the 128 KB of response headers the proxy
 * accepts from it.
 */
export const MAX_URL_BYTES = 8 * 1024;

/** A longer `Content-Location` from PostgREST is dropped (clients read 16 KB of headers). */
export const MAX_ECHOED_URL_BYTES = 4 * 1024;

/** The response headers the proxy reads from PostgREST (Node's default is 16 KB). */
export const MAX_UPSTREAM_HEADER_BYTES = 128 * 1024;

export type Refusal = {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
};

export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
    this.name = 'TooLarge';
  }
}

/**
 * How deep a JSON body may nest. The app's deepest is 4 (a booking's price); Postgres on PGlite
 * loses a request nested ~7,000 deep (docs/local-stack.md, "Abuse"), so such a body never reaches
 * it.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * The nesting depth of JSON text read in chunks, outside strings. Byte by byte: in UTF-8 no byte
 * of a multi-byte character is an ASCII bracket or quote. It checks nesting only; the parser
 * behind still judges the syntax.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly max = MAX_JSON_DEPTH) {}

  /** Reads more bytes; false once the text has nested deeper than the maximum. */
  push(bytes: Uint8Array): boolean {
    for (const byte of bytes) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++this.depth > this.max) return false;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        this.depth = Math.max(0, this.depth - 1);
      }
    }
    return true;
  }
}

/** Whether JSON text nests deeper than `max`. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  return !new JsonDepthScanner(max).push(Buffer.from(text, 'utf8'));
}

/**
 * Whether a parsed JSON value holds text Postgres cannot store in jsonb or text: a NUL character
 * (`\u0000`) or a lone UTF-16 surrogate. JSON allows both; Postgres refuses them (22P05), which
 * an API that passes them on answers with a 500.
 */
export function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') {
    // eslint-disable-next-line no-control-regex -- NUL is what this looks for
    return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
      value,
    );
  }
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(
      ([key, inner]) => holdsUnstorableText(key) || holdsUnstorableText(inner),
    );
  }
  return false;
}

export class TooDeep extends Error {
  constructor(readonly max: number) {
    super(`The JSON body nests deeper than ${max} levels.`);
    this.name = 'TooDeep';
  }
}

/**
 * Whether a request body is read as JSON: a JSON media type, or none (PostgREST and the
 * functions take a body without a type as JSON).
 */
export function isJsonBody(headers: { 'content-type'?: string }): boolean {
  const type = headers['content-type'];
  return !type || /^\s*application\/(?:[^;\s]*\+)?json\s*(?:;|$)/i.test(type);
}

export function tooDeep(max = MAX_JSON_DEPTH): Refusal {
  return {
    status: 400,
    body: {
      code: 'json_too_deep',
      message: `The JSON body nests deeper than the ${max} levels this API takes.`,
    },
  };
}

/**
 * Streams a request body to `upstream`, past a size cap and, for a JSON body, a nesting cap.
 * Over either, the upstream request is destroyed with the error (`TooLarge`, `TooDeep`) and
 * `onRefused` answers the client (before the upstream said anything).
 */
export function pipeCapped(
  req: IncomingMessage,
  upstream: Writable,
  onRefused: (error: TooLarge | TooDeep) => void,
  limit = MAX_BODY_BYTES,
): void {
  // By hand, not with stream.pipeline and two Transforms: the pipeline's AbortController builds
  // an AbortError, stack trace included, at the end of every request. With the anon key's
  // shortcut below, the gateway's CPU a booking went 0.52–0.57 → 0.36–0.37 ms (docs/database.md).
  const scanner = isJsonBody(req.headers) ? new JsonDepthScanner() : null;
  let size = 0;
  let stopped = false;
  const stop = (error?: TooLarge | TooDeep) => {
    if (stopped) return;
    stopped = true;
    req.off('data', onData);
    upstream.destroy(error);
    // As stream.pipeline ends a server request: detached from its socket first, so the rest of
    // the body is not read and the socket stays open for the refusal.
    (req as { socket: IncomingMessage['socket'] | null }).socket = null;
    req.destroy();
    if (error) onRefused(error);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) return stop(new TooLarge(limit));
    if (scanner && !scanner.push(chunk)) return stop(new TooDeep(MAX_JSON_DEPTH));
    if (!upstream.write(chunk)) {
      req.pause();
      upstream.once('drain', () => req.resume());
    }
  };
  req.on('data', onData);
  req.on('end', () => {
    if (!stopped) upstream.end();
  });
  // The client went away mid-body (the gateway also drops the upstream request then).
  req.on('error', () => stop());
  upstream.on('error', () => {
    if (stopped) return;
    stopped = true;
    req.off('data', onData);
    req.resume();
  });
}

/** The refusal for what `pipeCapped` stopped. */
export function refusalOf(error: TooLarge | TooDeep): Refusal {
  return error instanceof TooDeep ? tooDeep(error.max) : tooLarge(error.limit);
}

export function tooLarge(limit = MAX_BODY_BYTES): Refusal {
  return {
    status: 413,
    body: {
      code: 'request_too_large',
      message: `The request body is larger than the ${Math.round(limit / 1024)} KB this API takes.`,
    },
  };
}

/** 413 when the announced body is over the cap (a chunked body is counted as it streams). */
export function checkAnnouncedBody(
  headers: { 'content-length'?: string },
  limit = MAX_BODY_BYTES,
): Refusal | null {
  const length = Number(headers['content-length']);
  return Number.isFinite(length) && length > limit ? tooLarge(limit) : null;
}

/** Control characters (NUL, CR, LF…) in the decoded path end up raw in PostgREST's headers. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A 4xx for a /rest/v1 URL that PostgREST cannot answer cleanly: too long (414), not valid
 * percent-encoded UTF-8, or a path that holds a control character once decoded (400).
 */
export function checkRestUrl(rawUrl: string): Refusal | null {
  if (Buffer.byteLength(rawUrl) > MAX_URL_BYTES) {
    return {
      status: 414,
      body: {
        code: 'url_too_long',
        message: `The URL is longer than ${MAX_URL_BYTES} bytes: filter on fewer values, or call a function with POST.`,
      },
    };
  }
  const [path = '', query = ''] = rawUrl.split(/\?(.*)/s);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
    // PostgREST answers a query that is not UTF-8 once decoded with a 500.
    decodeURIComponent(query);
  } catch {
    return {
      status: 400,
      body: { code: 'invalid_url', message: 'The URL is not valid percent-encoded UTF-8.' },
    };
  }
  if (CONTROL.test(decoded)) {
    return {
      status: 400,
      body: { code: 'invalid_url', message: 'The path contains a control character.' },
    };
  }
  return null;
}

/**
 * The key a client is limited by: its IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber's line; a client can pick any address inside it).
 */
export function limiterKey(address: string): string {
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const full = address.includes('::')
    ? [...groups, ...Array<string>(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups]
    : groups;
  return `${full
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type RateLimitOptions = {
  /** Tokens added per second (the sustained rate). */
  perSecond: number;
  /** The bucket's size (the burst). */
  burst: number;
  /** At most this many addresses are remembered (the oldest full buckets are forgotten first). */
  maxKeys?: number;
  now?: () => number;
};

/**
 * Anonymous writes per client address (a token bucket): 10 a second, bursts of 100. An airport
 * hall of 300 travellers behind one address, each booking with ~10 writes (uploads, quote,
 * create, lookups) within 10 minutes, makes ~5 a second: half the rate, so they are never
 * refused, while one client alone cannot take more than ~2.5% of a PGlite stack's ~400 requests
 * a second. Booking limits per contact and per address live in SQL.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly now: () => number;

  constructor(private readonly options: RateLimitOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Takes one token: null when allowed, else the seconds to wait. */
  take(key: string): number | null {
    const now = this.now();
    const { perSecond, burst } = this.options;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    // Most recently used last: the Map's order is the eviction order.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    this.evict();
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(): void {
    const max = this.options.maxKeys ?? 100_000;
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= max) return;
      this.buckets.delete(key);
    }
  }
}

export const ANON_WRITES = { perSecond: 10, burst: 100 } as const;

export function rateLimited(retryAfterSeconds: number): Refusal {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: {
      code: 'over_request_rate_limit',
      message: `Too many requests from this address: retry in ${retryAfterSeconds} s.`,
    },
  };
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a write counts as anonymous: no token, the anon key, or a token that does not verify
 * (made up, signed with another secret, expired). Only a valid user or service token escapes
 * the limit, so a client cannot dodge it by sending any Authorization header.
 */
export function isAnonymousWrite(
  method: string,
  authorization: string | undefined,
  jwtSecret: string | JwtVerifier,
  anonKey?: string,
): boolean {
  if (!WRITE_METHODS.has(method)) return false;
  if (!authorization) return true;
  const token = authorization.replace(/^Bearer\s+/i, '');
  // The anon key is anonymous whether it verifies or not: no signature to check (most writes).
  if (token === anonKey) return true;
  try {
    const claims = verifyJwt<{ role?: unknown }>(token, jwtSecret);
    return claims.role !== 'authenticated' && claims.role !== 'service_role';
  } catch {
    return true;
  }
}
