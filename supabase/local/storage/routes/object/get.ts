/** GET /object/{bucket}/{key}, /object/public/…: downloads, with ranges and download names. */
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';

import type { JwtClaims } from '../../../context.ts';
import { ERRORS } from '../../errors.ts';
import { findBucket, header, type Bucket, type Storage } from '../../shared.ts';
import { type ObjectRow, findAsCaller, findAsOwner } from './rows.ts';

type ServeOptions = { download?: string | null; expires?: Date };

function parseRange(range: string, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!match || (match[1] === '' && match[2] === '')) throw ERRORS.invalidRange();
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return null;
  return { start, end };
}

/** Streams an object's bytes with storage-api's headers (ETag, ranges, download name). */
export async function serveObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  row: ObjectRow,
  options: ServeOptions = {},
): Promise<void> {
  let handle;
  try {
    handle = await open(storage.files.pathOf(row.bucket_id, row.name), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      storage.ctx.log(`storage: the bytes of ${row.bucket_id}/${row.name} are missing on disk`);
      throw ERRORS.noSuchKey();
    }
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const meta = row.metadata;
    const mimetype = meta?.mimetype ?? 'application/octet-stream';
    const eTag = meta?.eTag ?? `"${row.version ?? row.id}"`;
    const headers: Record<string, string | number> = {
      'content-type': mimetype.includes('text/html') ? 'text/plain' : mimetype,
      etag: eTag,
      'last-modified': new Date(meta?.lastModified ?? row.updated_at).toUTCString(),
      'accept-ranges': 'bytes',
      // Opened directly, an uploaded SVG or HTML file must not run scripts on the API's origin.
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    };
    if (options.expires) headers.expires = options.expires.toUTCString();
    else headers['cache-control'] = meta?.cacheControl ?? 'no-cache';
    if (options.download !== undefined && options.download !== null) {
      const name = encodeURIComponent(options.download);
      headers['content-disposition'] = name
        ? `attachment; filename=${name}; filename*=UTF-8''${name};`
        : 'attachment;';
    }

    const ifNoneMatch = header(req, 'if-none-match');
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === eTag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    let status = 200;
    let start = 0;
    let end = size - 1;
    const range = header(req, 'range');
    if (range && size > 0) {
      const wanted = parseRange(range, size);
      if (!wanted) {
        res.writeHead(416, { 'content-range': `bytes */${size}` });
        res.end();
        return;
      }
      ({ start, end } = wanted);
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['content-length'] = size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    await pipeline(handle.createReadStream({ start, end, autoClose: false }), res);
  } finally {
    await handle.close();
  }
}

export function downloadParam(url: URL): string | null {
  return url.searchParams.get('download');
}

/** GET|HEAD /object/{bucket}/{key} and /object/authenticated/…: as the caller. */
export async function getObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  bucketId: string,
  key: string,
  claims: JwtClaims,
): Promise<void> {
  const row = await findAsCaller(storage, claims, bucketId, key);
  await serveObject(storage, req, res, row, { download: downloadParam(url) });
}

export async function findPublicBucket(storage: Storage, bucketId: string): Promise<Bucket> {
  const bucket = await findBucket(storage, bucketId);
  if (!bucket || !bucket.public) throw ERRORS.noSuchBucket();
  return bucket;
}

/** GET|HEAD /object/public/{bucket}/{key}: public buckets only, no token needed. */
export async function getPublicObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  bucketId: string,
  key: string,
): Promise<void> {
  await findPublicBucket(storage, bucketId);
  const row = await findAsOwner(storage, bucketId, key);
  await serveObject(storage, req, res, row, { download: downloadParam(url) });
}
