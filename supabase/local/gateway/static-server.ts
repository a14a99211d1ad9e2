/**
 * Serves the built app (`dist/`) as a CDN would: the right content types, hashed assets cached
 * for a year, `index.html` and the service worker always revalidated, SPA fallback to
 * `index.html` for app routes, gzip/brotli for text, ETags.
 */
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.xml',
  '.svg',
]);

/** Vite's hashed output (`assets/index-B1a2c3D4.js`): its content never changes. */
const HASHED = /^\/assets\/.+-[\w-]{8,}\.\w+$/;
/** Revalidated on every load so an update reaches users at once. */
const NEVER_STALE = new Set(['/index.html', '/sw.js', '/registerSW.js', '/manifest.webmanifest']);

export function cacheControl(urlPath: string): string {
  if (HASHED.test(urlPath)) return 'public, max-age=31536000, immutable';
  if (NEVER_STALE.has(urlPath)) return 'no-cache';
  return 'public, max-age=0, must-revalidate';
}

type Encoded = { key: string; gzip: Buffer; br: Buffer };

export function createStaticHandler(rootDir: string): RequestListener {
  const root = resolve(rootDir);
  const compressed = new Map<string, Encoded>();

  async function findFile(urlPath: string): Promise<{ file: string; stats: Stats } | null> {
    const file = resolve(root, `.${urlPath}`);
    if (file !== root && !file.startsWith(root + sep)) return null;
    try {
      const stats = await stat(file);
      if (stats.isFile()) return { file, stats };
      if (stats.isDirectory()) {
        const index = resolve(file, 'index.html');
        const indexStats = await stat(index);
        if (indexStats.isFile()) return { file: index, stats: indexStats };
      }
    } catch {
      // not found
    }
    return null;
  }

  async function encodedBody(file: string, stats: Stats): Promise<Encoded> {
    const key = `${stats.size}-${stats.mtimeMs}`;
    const cached = compressed.get(file);
    if (cached?.key === key) return cached;
    const raw = await readFile(file);
    const entry = {
      key,
      gzip: gzipSync(raw, { level: 9 }),
      br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    };
    compressed.set(file, entry);
    return entry;
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://app.local').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }

    let found = await findFile(urlPath);
    let servedPath = urlPath;
    // SPA fallback: an app route (no file extension, or a page navigation) gets index.html;
    // a missing asset stays a 404 so a stale script never turns into HTML.
    if (!found && (!extname(urlPath) || String(req.headers.accept ?? '').includes('text/html'))) {
      found = await findFile('/index.html');
      servedPath = '/index.html';
    }
    if (!found) {
      res.writeHead(404, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.end('Not found');
      return;
    }
    if (found.file.endsWith(`${sep}index.html`)) servedPath = '/index.html';

    const { file, stats } = found;
    const ext = extname(file).toLowerCase();
    const etag = `"${createHash('sha1').update(`${file}:${stats.size}:${stats.mtimeMs}`).digest('base64url').slice(0, 16)}"`;
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'cache-control': cacheControl(servedPath),
      etag,
      'last-modified': stats.mtime.toUTCString(),
    };
    if (COMPRESSIBLE.has(ext)) headers.vary = 'Accept-Encoding';
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }

    const accept = String(req.headers['accept-encoding'] ?? '');
    if (COMPRESSIBLE.has(ext) && stats.size > 512 && /\b(br|gzip)\b/.test(accept)) {
      const encoded = await encodedBody(file, stats);
      const useBr = /\bbr\b/.test(accept);
      const body = useBr ? encoded.br : encoded.gzip;
      headers['content-encoding'] = useBr ? 'br' : 'gzip';
      headers['content-length'] = String(body.length);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    headers['content-length'] = String(stats.size);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  return (req, res) => {
    serve(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Internal error: ${error.message}`);
    });
  };
}
