// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listen } from '../postgres/pglite-server.ts';
import { createStaticHandler } from './static-server.ts';

let dir: string;
let server: Server;
let base: string;

const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiraa-static-'));
  mkdirSync(join(dir, 'dist/assets'), { recursive: true });
  mkdirSync(join(dir, 'dist/icons'), { recursive: true });
  writeFileSync(join(dir, 'dist/index.html'), '<!doctype html><title>Kiraa</title>');
  writeFileSync(join(dir, 'dist/assets/index-B1a2c3D4.js'), script);
  writeFileSync(join(dir, 'dist/sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(join(dir, 'dist/manifest.webmanifest'), '{"name":"Kiraa"}');
  writeFileSync(join(dir, 'dist/icons/icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  server = createServer(createStaticHandler(join(dir, 'dist')));
  base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Raw request (fetch would decompress and hide Content-Encoding). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the built app server', () => {
  it('serves index.html at / and for app routes, never cached stale', async () => {
    for (const path of ['/', '/cars/dacia-logan', '/guest-booking?ref=KR-1']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString()).toContain('<title>Kiraa</title>');
    }
  });

  it('caches hashed assets for a year, immutable', async () => {
    const res = await get('/assets/index-B1a2c3D4.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.toString()).toBe(script);
  });

  it('never lets the service worker or the manifest go stale, with the right types', async () => {
    const sw = await get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icon = await get('/icons/icon-192.png');
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('answers 404 for a missing asset instead of HTML', async () => {
    const res = await get('/assets/index-Zz9y8x7w.js');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('never serves files outside the build', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
    ]) {
      const res = await get(path);
      expect(res.body.toString(), path).not.toContain('outside');
    }
  });

  it('compresses text with brotli or gzip and revalidates with ETags', async () => {
    const br = await get('/assets/index-B1a2c3D4.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gzip = await get('/assets/index-B1a2c3D4.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const etag = String(br.headers.etag);
    const again = await get('/assets/index-B1a2c3D4.js', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers HEAD without a body and refuses writes', async () => {
    const head = await get('/sw.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    const post = await get('/', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});
