/**
 * The API gateway: what Kong does in front of a Supabase project. One node:http server that
 * answers CORS, checks the `apikey`, and routes `/rest/v1` to PostgREST (a streaming proxy),
 * `/auth/v1` and `/storage/v1` to their handlers, `/functions/v1` to the Edge Functions, and
 * `/mailbox` to the dev mailbox. PostgREST's JSON and text answers are gzipped for clients that
 * accept it, as a hosted project's CDN does. Bodies are capped, anonymous writes rate-limited per
 * client address, and URLs PostgREST cannot answer cleanly refused (gateway-guards.ts).
 */
import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';

import type { ApiHandler } from '../context.ts';
import { HOP_BY_HOP, type EdgeRuntime } from '../functions/runtime.ts';
import type { Mailbox } from '../mailbox/mailbox.ts';
import type { PushService } from '../push/push-service.ts';
import {
  ANON_WRITES,
  MAX_ECHOED_URL_BYTES,
  MAX_UPSTREAM_HEADER_BYTES,
  RateLimiter,
  TooDeep,
  TooLarge,
  pipeCapped,
  refusalOf,
  checkAnnouncedBody,
  checkRestUrl,
  isAnonymousWrite,
  limiterKey,
  rateLimited,
  type RateLimitOptions,
} from './gateway-guards.ts';
import type { JwtVerifier } from '../jwt.ts';
import {
  ALLOWED_HEADERS,
  EXPOSED_HEADERS,
  ALLOWED_METHODS,
  GZIP_MIN_BYTES,
  COMPRESSIBLE_TYPE,
  acceptsGzip,
  mergeVary,
  withoutApiKey,
  isAllowedOrigin,
  refuse,
  sendJson,
  isOpenRoute,
  firstHeader,
  sentForwardedFor,
  clientAddress,
} from './headers.ts';

export type Upstream = {
  /** The port PostgREST listens on now (it changes on restart). */
  readonly port: number;
  /** Resolves once a (re)start is ready. */
  ready(): Promise<void>;
};

export type GatewayOptions = {
  anonKey: string;
  serviceRoleKey: string;
  /** Verifies user tokens: only a valid one escapes the anonymous-write limit. */
  jwtSecret: string;
  /** The JWKS's keys besides the secret (ES256 access tokens); the secret alone when absent. */
  signingKeys?: JwtVerifier;
  appOrigins: string[];
  postgrest: Upstream;
  auth: ApiHandler;
  storage: ApiHandler;
  mailbox: Mailbox;
  /** The local push service and dev push inbox (`/push`); none when absent. */
  push?: PushService;
  /** The Edge Functions (`/functions/v1`); none when absent. */
  functions?: EdgeRuntime;
  /** Anonymous writes per client address (default ANON_WRITES; null: no limit). */
  anonWriteLimit?: RateLimitOptions | null;
  /**
   * Trust X-Forwarded-For / X-Forwarded-Proto sent by the client (when another proxy sits in
   * front, and in tests that simulate several client addresses). Off by default: the client
   * address is the socket's peer.
   */
  trustProxyHeaders?: boolean;
  log: (message: string) => void;
};

export type Gateway = {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Drops the kept-alive upstream connections. */
  close(): void;
};

export function createGateway(options: GatewayOptions): Gateway {
  const keys = new Set([options.anonKey, options.serviceRoleKey]);
  // An idle connection to PostgREST is dropped after 15 s: PostgREST (Warp) closes idle ones after
  // 30–60 s, and a request sent on a connection it is closing would fail with no answer (502).
  const agent = new Agent({ keepAlive: true, maxSockets: 32, timeout: 15_000 });
  const limitOptions = options.anonWriteLimit === undefined ? ANON_WRITES : options.anonWriteLimit;
  const limiter = limitOptions ? new RateLimiter(limitOptions) : null;

  function setCors(req: IncomingMessage, res: ServerResponse): void {
    const origin = firstHeader(req.headers.origin);
    res.setHeader('vary', 'Origin');
    if (!origin || !isAllowedOrigin(origin, options.appOrigins)) return;
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
  }

  function proxyToPostgrest(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
  ): void {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== 'apikey') headers[name] = value;
    }
    // As hosted Supabase hands them to PostgREST: `cf-connecting-ip` is the connecting client
    // (a client-sent one is dropped, as Cloudflare overwrites it) and the client's address is
    // appended to a client-sent `X-Forwarded-For`, whose other entries are the client's words.
    const trust = options.trustProxyHeaders ?? false;
    const address = clientAddress(req, trust);
    const sent = sentForwardedFor(req);
    headers['cf-connecting-ip'] = address;
    headers['x-forwarded-for'] = sent && !trust ? `${sent}, ${address}` : (sent ?? address);
    headers['x-real-ip'] = address;
    headers['x-forwarded-proto'] =
      (options.trustProxyHeaders && firstHeader(req.headers['x-forwarded-proto'])) || 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';

    const search = withoutApiKey(req.url ?? '');
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: options.postgrest.port,
        method: req.method,
        path: `${path || '/'}${search ? `?${search}` : ''}`,
        headers,
        agent,
        // PostgREST echoes the URL in Content-Location, expanded (gateway-guards.ts).
        maxHeaderSize: MAX_UPSTREAM_HEADER_BYTES,
      },
      (answer) => {
        const out: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(name) && !name.startsWith('access-control-') && value !== undefined) {
            out[name] = value;
          }
        }
        // An echo too long for clients' header limits (Node's is 16 KB) is dropped, not relayed.
        const echoed = out['content-location'];
        if (typeof echoed === 'string' && echoed.length > MAX_ECHOED_URL_BYTES) {
          delete out['content-location'];
        }
        const status = answer.statusCode ?? 502;
        const length = Number(firstHeader(answer.headers['content-length']) ?? NaN);
        // Could this answer be gzipped (for a client that asks)? Then caches must vary on it.
        const compressible =
          req.method !== 'HEAD' &&
          status !== 204 &&
          status !== 304 &&
          !answer.headers['content-encoding'] &&
          COMPRESSIBLE_TYPE.test(answer.headers['content-type'] ?? '') &&
          !(length < GZIP_MIN_BYTES);
        const gzip = compressible && acceptsGzip(firstHeader(req.headers['accept-encoding']));
        const vary = mergeVary(
          res.getHeader('vary'),
          out.vary,
          compressible ? 'Accept-Encoding' : undefined,
        );
        if (vary) out.vary = vary;
        if (!gzip) {
          res.writeHead(status, out);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
          return;
        }
        out['content-encoding'] = 'gzip';
        delete out['content-length'];
        // The gzipped bytes are another representation: a strong validator becomes weak.
        const etag = firstHeader(answer.headers.etag);
        if (etag && !etag.startsWith('W/')) out.etag = `W/${etag}`;
        res.writeHead(status, out);
        // An error on any of the three (upstream, gzip, client) destroys the others.
        pipeline(answer, createGzip(), res, () => {});
      },
    );
    upstream.on('error', (error) => {
      // The client went away first, or sent too much or too deep (answered): nothing more to say.
      if (res.destroyed || error instanceof TooLarge || error instanceof TooDeep) return;
      options.log(`gateway: PostgREST request failed: ${error.message}`);
      sendJson(res, 502, { message: 'An invalid response was received from the upstream server' });
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    pipeCapped(req, upstream, (error) => refuse(res, refusalOf(error)));
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://gateway.local');
    const path = url.pathname;

    setCors(req, res);
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const origin = firstHeader(req.headers.origin);
      const headers: OutgoingHttpHeaders = { 'content-length': '0' };
      if (origin && isAllowedOrigin(origin, options.appOrigins)) {
        headers['access-control-allow-methods'] = ALLOWED_METHODS;
        headers['access-control-allow-headers'] = ALLOWED_HEADERS.join(', ');
        headers['access-control-max-age'] = '3600';
      }
      res.writeHead(204, headers).end();
      return;
    }

    if (path === '/health') {
      return sendJson(res, 200, { status: 'ok' });
    }
    if (path === '/mailbox' || path.startsWith('/mailbox/')) {
      return options.mailbox.handle(req, res, path.slice('/mailbox'.length), url);
    }
    if (options.push && (path === '/push' || path.startsWith('/push/'))) {
      return options.push.handle(req, res, path.slice('/push'.length), url);
    }

    const api = /^\/(rest|auth|storage|functions)\/v1(\/.*)?$/.exec(path);
    if (!api) return sendJson(res, 404, { message: 'no Route matched with those values' });
    const [, service, rest = ''] = api;
    const address = clientAddress(req, options.trustProxyHeaders ?? false);

    if (service === 'rest') {
      const malformed = checkRestUrl(req.url ?? '/');
      if (malformed) return refuse(res, malformed);
    }
    if (service !== 'storage') {
      // Storage has its own per-bucket file size limits.
      const oversized = checkAnnouncedBody(req.headers);
      if (oversized) return refuse(res, oversized);
    }
    if (
      limiter &&
      isAnonymousWrite(
        method,
        req.headers.authorization,
        options.signingKeys ?? options.jwtSecret,
        options.anonKey,
      )
    ) {
      const wait = limiter.take(limiterKey(address));
      if (wait !== null) return refuse(res, rateLimited(wait));
    }

    if (!isOpenRoute(method, path)) {
      const apikey = firstHeader(req.headers.apikey) ?? url.searchParams.get('apikey') ?? undefined;
      if (!apikey) return sendJson(res, 401, { message: 'No API key found in request' });
      if (!keys.has(apikey)) return sendJson(res, 401, { message: 'Invalid API key' });
      // As Supabase does: without a user token, the API key is the bearer token.
      if (!req.headers.authorization) req.headers.authorization = `Bearer ${apikey}`;
    }

    if (service === 'functions') {
      if (!options.functions)
        return sendJson(res, 404, { message: 'no Route matched with those values' });
      return options.functions.handle(req, res, rest, url, address);
    }
    if (service === 'rest') {
      // While PostgREST restarts, wait for it instead of failing (a failed restart gives a 502).
      await options.postgrest.ready().catch(() => {});
      return proxyToPostgrest(req, res, url, rest);
    }
    const handler = service === 'auth' ? options.auth : options.storage;
    // The services read the client address from here (auth's per-IP rate limits): the
    // gateway's own view, never what a client wrote into the header.
    req.headers['x-forwarded-for'] = clientAddress(req, options.trustProxyHeaders ?? false);
    await handler(req, res, rest, url);
  }

  return {
    handle(req, res) {
      route(req, res).catch((error: Error) => {
        options.log(`gateway: ${req.method} ${req.url}: ${error.stack ?? error.message}`);
        sendJson(res, 500, { message: 'Internal server error' });
      });
    },
    close() {
      agent.destroy();
    },
  };
}
