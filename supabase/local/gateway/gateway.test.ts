// @vitest-environment node
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createGateway } from './gateway.ts';
import { acceptsGzip, isAllowedOrigin } from './headers.ts';
import { signJwt } from '../jwt.ts';
import type { Mailbox } from '../mailbox/mailbox.ts';

describe('isAllowedOrigin', () => {
  it('allows the app’s origins and localhost on any port, nothing else', () => {
    const app = ['https://kiraa.example'];
    expect(isAllowedOrigin('https://kiraa.example', app)).toBe(true);
    expect(isAllowedOrigin('http://localhost:4173', app)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:5173', app)).toBe(true);
    expect(isAllowedOrigin('http://[::1]:9000', app)).toBe(true);
    expect(isAllowedOrigin('http://localhost', app)).toBe(true);
    expect(isAllowedOrigin('https://kiraa.example.evil.com', app)).toBe(false);
    expect(isAllowedOrigin('http://localhost.evil.com', app)).toBe(false);
    expect(isAllowedOrigin('null', app)).toBe(false);
  });
});

describe('acceptsGzip', () => {
  it('reads q-values and the * wildcard', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br, *;q=0.1')).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.000, br')).toBe(false);
    expect(acceptsGzip('*, gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
  });
});

type Reply = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** A raw request (fetch would decompress transparently and hide `content-encoding`). */
function send(port: number, path: string, headers: OutgoingHttpHeaders = {}, method = 'GET') {
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { apikey: ANON, origin: 'http://localhost:5173', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function varyNames(reply: Reply): string[] {
  return (reply.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase());
}

const ANON = 'anon-key';
const JWT_SECRET = 'gateway-test-secret-of-32-characters';
const CARS = JSON.stringify(
  Array.from({ length: 60 }, (_, i) => ({
    id: i,
    make: 'Dacia',
    model: 'Logan',
    daily_price: 4500,
  })),
);
const SMALL = JSON.stringify([{ id: 1, make: 'Renault' }]);

describe('gateway gzip for PostgREST answers', () => {
  const upstreamClosed: string[] = [];
  const upstream = createServer((req, res) => {
    req.on('close', () => upstreamClosed.push(req.url ?? ''));
    const json = { 'content-type': 'application/json; charset=utf-8' };
    switch (req.url) {
      case '/cars': // streamed, as PostgREST does: no content-length
        res.writeHead(200, { ...json, etag: '"v1"', 'content-range': '0-59/60' });
        res.write(CARS.slice(0, 1000));
        res.end(CARS.slice(1000));
        return;
      case '/cars-sized':
        res.writeHead(200, {
          'content-type': 'application/vnd.pgrst.object+json',
          'content-length': Buffer.byteLength(CARS),
          vary: 'Accept-Encoding, Prefer',
        });
        res.end(CARS);
        return;
      case '/cars.csv':
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
        res.end(CARS);
        return;
      case '/small':
        res.writeHead(200, { ...json, 'content-length': Buffer.byteLength(SMALL) });
        res.end(SMALL);
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(CARS);
        return;
      case '/encoded':
        res.writeHead(200, { ...json, 'content-encoding': 'gzip' });
        res.end(gzipSync(CARS));
        return;
      case '/nothing':
        res.writeHead(204, json).end();
        return;
      case '/broken': // dies halfway through the body
        res.writeHead(200, json);
        res.write(CARS.slice(0, 2000));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      case '/endless': // keeps streaming until the client leaves
        res.writeHead(200, json);
        res.write('[');
        return;
      default:
        res.writeHead(404, json).end('{}');
    }
  });
  const log = vi.fn();
  const gateway = createGateway({
    anonKey: ANON,
    serviceRoleKey: 'service-key',
    jwtSecret: JWT_SECRET,
    appOrigins: [],
    postgrest: {
      get port() {
        return (upstream.address() as AddressInfo).port;
      },
      ready: () => Promise.resolve(),
    },
    auth: () => Promise.resolve(),
    storage: () => Promise.resolve(),
    mailbox: {} as Mailbox,
    log,
  });
  const server = createServer((req, res) => gateway.handle(req, res));
  let port = 0;

  beforeAll(async () => {
    await listen(upstream);
    port = await listen(server);
  });
  afterAll(async () => {
    gateway.close();
    server.closeAllConnections();
    upstream.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => server.close(resolve)),
      new Promise((resolve) => upstream.close(resolve)),
    ]);
  });

  it('gzips a JSON answer over 1 KB for a client that accepts gzip', async () => {
    const reply = await send(port, '/rest/v1/cars', { 'accept-encoding': 'gzip, deflate, br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.headers['content-length']).toBeUndefined();
    expect(reply.body.length).toBeLessThan(Buffer.byteLength(CARS));
    expect(gunzipSync(reply.body).toString()).toBe(CARS);
    expect(varyNames(reply)).toEqual(['origin', 'accept-encoding']);
    expect(reply.headers['content-range']).toBe('0-59/60');
    expect(reply.headers.etag).toBe('W/"v1"');
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('gzips sized PostgREST JSON and text, merging the upstream vary', async () => {
    const sized = await send(port, '/rest/v1/cars-sized', { 'accept-encoding': 'GZIP;q=0.5' });
    expect(sized.headers['content-encoding']).toBe('gzip');
    expect(sized.headers['content-length']).toBeUndefined();
    expect(gunzipSync(sized.body).toString()).toBe(CARS);
    expect(varyNames(sized)).toEqual(['origin', 'accept-encoding', 'prefer']);

    const csv = await send(port, '/rest/v1/cars.csv', { 'accept-encoding': '*' });
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.body).toString()).toBe(CARS);
  });

  it.each([
    ['no accept-encoding', undefined],
    ['gzip;q=0', 'gzip;q=0, deflate'],
    ['only br', 'br'],
    ['* but not gzip', '*, gzip;q=0'],
    ['identity', 'identity'],
  ])('does not compress for %s', async (_, acceptEncoding) => {
    const reply = await send(
      port,
      '/rest/v1/cars',
      acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    );
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.toString()).toBe(CARS);
    // It could have been gzipped: caches must keep the two apart.
    expect(varyNames(reply)).toEqual(['origin', 'accept-encoding']);
  });

  it('leaves small, binary and already encoded answers alone', async () => {
    const headers = { 'accept-encoding': 'gzip' };
    const small = await send(port, '/rest/v1/small', headers);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['content-length']).toBe(String(Buffer.byteLength(SMALL)));
    expect(small.body.toString()).toBe(SMALL);
    expect(varyNames(small)).toEqual(['origin']);

    const image = await send(port, '/rest/v1/image', headers);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.toString()).toBe(CARS);

    const encoded = await send(port, '/rest/v1/encoded', headers);
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(encoded.body).toString()).toBe(CARS); // gzipped once, not twice
  });

  it('leaves HEAD and 204 answers alone', async () => {
    const head = await send(port, '/rest/v1/cars-sized', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(CARS)));

    const nothing = await send(port, '/rest/v1/nothing', { 'accept-encoding': 'gzip' });
    expect(nothing.status).toBe(204);
    expect(nothing.headers['content-encoding']).toBeUndefined();
    expect(nothing.body.length).toBe(0);
  });

  it('cuts the gzipped answer short when PostgREST dies mid-body', async () => {
    await expect(send(port, '/rest/v1/broken', { 'accept-encoding': 'gzip' })).rejects.toThrow(
      /aborted|socket hang up|ECONNRESET/,
    );
  });

  it('drops the PostgREST request when the client leaves a gzipped answer', async () => {
    const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/rest/v1/endless',
          headers: { apikey: ANON, 'accept-encoding': 'gzip' },
        },
        (res) => {
          res.on('error', () => {});
          req.destroy();
          resolve(res.headers);
        },
      );
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    expect(headers['content-encoding']).toBe('gzip');
    await vi.waitFor(() => expect(upstreamClosed).toContain('/endless'));
    expect(log).not.toHaveBeenCalled();
  });
});

describe('gateway under abuse', () => {
  const seen: string[] = [];
  /** Requests whose body PostgREST never got whole. */
  const cut: string[] = [];
  const upstream = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.on('close', () => {
      if (!req.complete) cut.push(`${req.method} ${req.url}`);
    });
    // Drain the body, then answer like PostgREST: the URL echoed (re-encoded) in Content-Location.
    req.resume();
    req.on('end', () => {
      const echoed = (req.url ?? '').replace(/,/g, '%2C');
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-location': echoed,
      });
      res.end('[]');
    });
  });
  const gateway = createGateway({
    anonKey: ANON,
    serviceRoleKey: 'service-key',
    jwtSecret: JWT_SECRET,
    appOrigins: [],
    postgrest: {
      get port() {
        return (upstream.address() as AddressInfo).port;
      },
      ready: () => Promise.resolve(),
    },
    auth: async (_req, res) => {
      res.writeHead(200).end('{}');
    },
    storage: () => Promise.resolve(),
    mailbox: {} as Mailbox,
    anonWriteLimit: { perSecond: 1, burst: 3 },
    trustProxyHeaders: true,
    log: () => {},
  });
  const server = createServer((req, res) => gateway.handle(req, res));
  let port = 0;

  beforeAll(async () => {
    await listen(upstream);
    port = await listen(server);
  });
  afterAll(async () => {
    gateway.close();
    server.closeAllConnections();
    upstream.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => server.close(resolve)),
      new Promise((resolve) => upstream.close(resolve)),
    ]);
  });

  /** Sends a body (chunked when `chunked`), from the client address `ip`. */
  function post(path: string, body: Buffer, ip: string, chunked = false, headers = {}) {
    return new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            apikey: ANON,
            'content-type': 'application/json',
            'x-forwarded-for': ip,
            ...(chunked ? {} : { 'content-length': body.length }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      req.on('error', reject);
      if (chunked) {
        for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
        req.end();
      } else {
        req.end(body);
      }
    });
  }

  it('refuses a body over 1 MB with 413 JSON, announced or streamed, before PostgREST answers', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 'a');
    const announced = await post('/rest/v1/rpc/quote_booking', big, '198.51.100.1');
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body.toString())).toMatchObject({ code: 'request_too_large' });
    const streamed = await post('/rest/v1/rpc/quote_booking', big, '198.51.100.2', true);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body.toString())).toMatchObject({ code: 'request_too_large' });
    const auth = await post('/auth/v1/signup', big, '198.51.100.3');
    expect(auth.status).toBe(413);
    expect(
      (await post('/rest/v1/rpc/quote_booking', Buffer.from('{}'), '198.51.100.4')).status,
    ).toBe(200);
  });

  it('refuses JSON nested too deep with 400 while it streams, before PostgREST hears of it', async () => {
    cut.length = 0;
    seen.length = 0;
    const deep = Buffer.from(`${'['.repeat(65)}${']'.repeat(65)}`);
    const reply = await post('/rest/v1/rpc/quote_booking', deep, '198.51.100.5', true);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toMatchObject({ code: 'json_too_deep' });
    const fine = Buffer.from(`${'['.repeat(64)}${']'.repeat(64)}`);
    expect((await post('/rest/v1/rpc/quote_booking', fine, '198.51.100.6', true)).status).toBe(200);
    // The deep one, refused within its first chunk, never reached PostgREST.
    expect(seen).toEqual(['POST /rpc/quote_booking']);
    expect(cut).toEqual([]);
  });

  it('drops the request to PostgREST when the client goes away in the middle of its body', async () => {
    cut.length = 0;
    seen.length = 0;
    const client = request({
      host: '127.0.0.1',
      port,
      path: '/rest/v1/rpc/quote_booking',
      method: 'POST',
      headers: {
        apikey: ANON,
        'content-type': 'application/json',
        'x-forwarded-for': '198.51.100.7',
      },
    });
    client.on('error', () => {});
    client.write('{"car_id": ');
    await vi.waitFor(() => expect(seen).toEqual(['POST /rpc/quote_booking']));
    client.destroy();
    await vi.waitFor(() => expect(cut).toEqual(['POST /rpc/quote_booking']));
  });

  it('limits anonymous writes per client address with 429 and Retry-After; others and users go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await post('/rest/v1/rpc/quote_booking', Buffer.from('{}'), '203.0.113.9')).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await post('/rest/v1/rpc/quote_booking', Buffer.from('{}'), '203.0.113.9');
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'over_request_rate_limit' });
    // Another address, and a signed-in user at the same address, are not affected.
    expect(
      (await post('/rest/v1/rpc/quote_booking', Buffer.from('{}'), '203.0.113.10')).status,
    ).toBe(200);
    const user = await post('/rest/v1/rpc/quote_booking', Buffer.from('{}'), '203.0.113.9', false, {
      authorization: `Bearer ${signJwt({ role: 'authenticated', sub: 'u' }, JWT_SECRET)}`,
    });
    expect(user.status).toBe(200);
    // A made-up or forged token is no way around it.
    for (const token of ['made-up', signJwt({ role: 'authenticated', sub: 'u' }, 'x'.repeat(32))]) {
      const forged = await post(
        '/rest/v1/rpc/quote_booking',
        Buffer.from('{}'),
        '203.0.113.9',
        false,
        {
          authorization: `Bearer ${token}`,
        },
      );
      expect(forged.status).toBe(429);
    }
  });

  it('answers 400 for a control character in the path, without asking PostgREST', async () => {
    seen.length = 0;
    const reply = await send(port, '/rest/v1/cars%00?select=id');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toMatchObject({ code: 'invalid_url' });
    expect(seen).toEqual([]);
  });

  it('answers a long filter that PostgREST echoes 3 times longer, and refuses a URL over 8 KB with 414', async () => {
    const filter = `slug=in.(${','.repeat(7800)})`;
    const reply = await send(port, `/rest/v1/cars?${filter}`);
    expect(reply.status).toBe(200);
    expect(seen.at(-1)).toBe(`GET /cars?${filter}`);
    // The 23 KB echo is dropped: clients read at most 16 KB of headers.
    expect(reply.headers['content-location']).toBeUndefined();
    const short = await send(port, '/rest/v1/cars?select=id&apikey=anon-key');
    expect(short.headers['content-location']).toBe('/cars?select=id');
    const tooLong = await send(port, `/rest/v1/cars?slug=in.(${','.repeat(8200)})`);
    expect(tooLong.status).toBe(414);
  });
});
