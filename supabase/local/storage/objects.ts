/**
 * The object routes of storage-api that supabase-js calls: upload / update / upsert, download
 * (authenticated, public, signed), info, exists, signed URLs, list, move, copy and remove.
 * Every read and write runs as the caller, so the RLS policies on storage.objects decide.
 */
import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';

import { verifyFileType } from '../../../src/domain/file-sniff.ts';
import type { JwtClaims, Queryable } from '../context.ts';
import { signJwt, verifyJwt, JwtError } from '../jwt.ts';

import { receiveUpload, readJson, TooLarge } from './body.ts';
import { ERRORS } from './errors.ts';
import { mustBeValidBucketName, mustBeValidKey } from './keys.ts';
import {
  asCaller,
  findBucket,
  header,
  intParam,
  mustFindBucket,
  ownerOf,
  sendJson,
  sizeLimitOf,
  withFiles,
  type Bucket,
  type Storage,
} from './shared.ts';

export type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

type ObjectRow = {
  id: string;
  name: string;
  bucket_id: string;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
};

const OBJECT_COLUMNS =
  'id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

async function selectObject(q: Queryable, bucket: string, key: string): Promise<ObjectRow | null> {
  const { rows } = await q.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  );
  return rows[0] ?? null;
}

/** The object as the caller may see it (RLS), or 404 — also when RLS hides it. */
async function findAsCaller(
  storage: Storage,
  claims: JwtClaims,
  bucket: string,
  key: string,
): Promise<ObjectRow> {
  const row = await asCaller(storage, claims, (q) => selectObject(q, bucket, key));
  if (!row) throw ERRORS.noSuchKey();
  return row;
}

async function findAsOwner(storage: Storage, bucket: string, key: string): Promise<ObjectRow> {
  const row = await selectObject(storage.ctx.db, bucket, key);
  if (!row) throw ERRORS.noSuchKey();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Upload
// ---------------------------------------------------------------------------------------------

export type UploadMode = 'create' | 'upsert' | 'update';

/** Checks a file's type, from its bytes, against a bucket's allowed types (415 if refused). */
function checkType(
  bucket: Bucket,
  head: Uint8Array,
  declaredType: string | undefined,
): { mimeType: string } {
  const verdict = verifyFileType(head, declaredType, bucket.allowed_mime_types);
  if (verdict.ok) return verdict;
  const declared = declaredType ? `declared as ${declaredType}` : 'declared without a type';
  if (verdict.reason === 'content_mismatch') {
    throw ERRORS.invalidMimeType(
      verdict.mimeType,
      `: the file's content is not ${verdict.mimeType} (${declared})`,
    );
  }
  const what = verdict.detected
    ? `: the file's content is a ${verdict.detected.label} (${declared})`
    : '';
  throw ERRORS.invalidMimeType(verdict.mimeType, what);
}

export async function uploadObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  key: string,
  claims: JwtClaims,
  mode: UploadMode,
): Promise<void> {
  const bucket = await mustFindBucket(storage, bucketId);
  const staged = await storage.files.stagingPath();
  try {
    let upload;
    try {
      upload = await receiveUpload(req, staged, sizeLimitOf(bucket));
    } catch (error) {
      if (error instanceof TooLarge) {
        // What is left of the body was not read: the connection cannot be reused.
        if (!req.complete) res.setHeader('connection', 'close');
        throw ERRORS.entityTooLarge();
      }
      throw error;
    }
    const { mimeType } = checkType(bucket, upload.head, upload.declaredType);
    const lastModified = new Date();
    lastModified.setMilliseconds(0);
    const metadata: ObjectMetadata = {
      eTag: `"${upload.md5}"`,
      size: upload.size,
      mimetype: mimeType,
      cacheControl: upload.cacheControl,
      lastModified: lastModified.toISOString(),
      contentLength: upload.size,
      httpStatusCode: 200,
    };
    const { owner, ownerId } = ownerOf(claims);
    const version = randomUUID();
    const values = [
      bucketId,
      key,
      owner,
      ownerId,
      JSON.stringify(metadata),
      upload.userMetadata ? JSON.stringify(upload.userMetadata) : null,
      version,
    ];

    const id = await withFiles(storage, claims, async (q, changes) => {
      let objectId: string;
      if (mode === 'create') {
        // No RETURNING: an upload needs only INSERT permission (RETURNING would need SELECT).
        objectId = randomUUID();
        await q.query(
          `insert into storage.objects
             (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($8, $1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
          [...values, objectId],
        );
      } else if (mode === 'upsert') {
        // Replacing needs SELECT and UPDATE permission on the existing row; Postgres refuses
        // (42501) when RLS does not grant them, as storage-api does.
        const { rows } = await q.query<{ id: string }>(
          `insert into storage.objects
             (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)
           on conflict (bucket_id, name) do update set
             owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
             user_metadata = excluded.user_metadata, version = excluded.version,
             updated_at = now(), last_accessed_at = now()
           returning id`,
          values,
        );
        objectId = rows[0]!.id;
      } else {
        const { rows } = await q.query<{ id: string }>(
          `update storage.objects set
             owner = $3, owner_id = $4, metadata = $5::jsonb, user_metadata = $6::jsonb,
             version = $7, updated_at = now(), last_accessed_at = now()
           where bucket_id = $1 and name = $2
           returning id`,
          values,
        );
        if (!rows[0]) throw ERRORS.noSuchKey();
        objectId = rows[0].id;
      }
      await changes.place(staged, bucketId, key);
      return objectId;
    });
    sendJson(res, 200, { Id: id, Key: `${bucketId}/${key}` });
  } finally {
    await storage.files.discard(staged);
  }
}

// ---------------------------------------------------------------------------------------------
// Download, info, exists
// ---------------------------------------------------------------------------------------------

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
async function serveObject(
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

function downloadParam(url: URL): string | null {
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

async function findPublicBucket(storage: Storage, bucketId: string): Promise<Bucket> {
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

/**
 * GET /object/info/… and HEAD /object/{bucket}/{key} (supabase-js `info` and `exists`). As in
 * storage-api, an object of a public bucket is visible to anyone; otherwise RLS decides.
 */
export async function objectInfo(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  key: string,
  claims: JwtClaims | 'public',
  as: 'info' | 'head',
): Promise<void> {
  const bucket =
    claims === 'public'
      ? await findPublicBucket(storage, bucketId)
      : await findBucket(storage, bucketId);
  if (!bucket) throw ERRORS.noSuchBucket();
  const row =
    claims === 'public' || bucket.public
      ? await findAsOwner(storage, bucketId, key)
      : await findAsCaller(storage, claims, bucketId, key);
  if (as === 'head') {
    await serveObject(storage, req, res, row);
    return;
  }
  const meta = row.metadata;
  sendJson(res, 200, {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: meta?.size ?? null,
    content_type: meta?.mimetype ?? null,
    cache_control: meta?.cacheControl ?? null,
    etag: meta?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  });
}

// ---------------------------------------------------------------------------------------------
// Signed URLs
// ---------------------------------------------------------------------------------------------

type SignedToken = { url?: unknown; exp?: unknown };

function signUrl(storage: Storage, bucketId: string, key: string, expiresIn: number): string {
  const iat = Math.floor(Date.now() / 1000);
  const token = signJwt(
    { url: `${bucketId}/${key}`, iat, exp: iat + expiresIn },
    storage.ctx.config.jwtSecret,
  );
  return `/object/sign/${bucketId}/${key}?token=${token}`;
}

/** POST /object/sign/{bucket}/{key} {expiresIn} → {signedURL}: the caller must see the object. */
export async function createSignedUrl(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  key: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  const expiresIn = intParam(body.expiresIn, 'expiresIn', Number.NaN, 1);
  if (Number.isNaN(expiresIn))
    throw ERRORS.badRequest("body must have required property 'expiresIn'");
  await findAsCaller(storage, claims, bucketId, key);
  sendJson(res, 200, { signedURL: signUrl(storage, bucketId, key, expiresIn) });
}

/** POST /object/sign/{bucket} {expiresIn, paths} → one entry per path, signed if visible. */
export async function createSignedUrls(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  const expiresIn = intParam(body.expiresIn, 'expiresIn', Number.NaN, 1);
  if (Number.isNaN(expiresIn))
    throw ERRORS.badRequest("body must have required property 'expiresIn'");
  const paths = body.paths;
  if (!Array.isArray(paths) || paths.length === 0 || paths.some((p) => typeof p !== 'string')) {
    throw ERRORS.badRequest('body/paths must be a non-empty array of strings');
  }
  if (paths.length > 1000) throw ERRORS.badRequest('body/paths must NOT have more than 1000 items');
  const keys = (paths as string[]).map((path) => {
    try {
      return mustBeValidKey(path);
    } catch {
      return null;
    }
  });
  const visible = await asCaller(storage, claims, async (q) => {
    const { rows } = await q.query<{ name: string }>(
      'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
      [bucketId, keys.filter((k): k is string => k !== null)],
    );
    return new Set(rows.map((r) => r.name));
  });
  sendJson(
    res,
    200,
    (paths as string[]).map((path, i) => {
      const key = keys[i];
      return key && visible.has(key)
        ? { error: null, path, signedURL: signUrl(storage, bucketId, key, expiresIn) }
        : {
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          };
    }),
  );
}

/** GET /object/sign/{bucket}/{key}?token=…: serves the object while the token is valid. */
export async function getSignedObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  bucketId: string,
  key: string,
): Promise<void> {
  const token = url.searchParams.get('token');
  if (!token) throw ERRORS.badRequest("querystring must have required property 'token'");
  let payload: SignedToken;
  try {
    payload = verifyJwt<SignedToken>(token, storage.ctx.config.jwtSecret);
  } catch (error) {
    const reason = error instanceof JwtError ? error.reason : 'malformed';
    throw ERRORS.invalidJwt(
      reason === 'expired'
        ? 'jwt expired'
        : reason === 'bad_signature'
          ? 'invalid signature'
          : 'jwt malformed',
    );
  }
  // Only a token minted for this very object: an access token (no `url`) or one signed for
  // another path is refused.
  if (payload.url !== `${bucketId}/${key}`) throw ERRORS.invalidSignature();
  const row = await findAsOwner(storage, bucketId, key);
  await serveObject(storage, req, res, row, {
    download: downloadParam(url),
    expires: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * POST /object/list/{bucket} {prefix, limit, offset, sortBy, search}: the folders (id null) and
 * files directly under `prefix`, like storage-api's `storage.search()`, as the caller.
 */
export async function listObjects(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  let prefix =
    typeof body.prefix === 'string' ? body.prefix.replace(/\/+/g, '/').replace(/^\//, '') : '';
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
  const search = typeof body.search === 'string' ? body.search : '';
  const limit = intParam(body.limit, 'limit', 100, 0);
  const offset = intParam(body.offset, 'offset', 0, 0);
  const sortBy = (typeof body.sortBy === 'object' && body.sortBy) || {};
  const rawColumn = (sortBy as { column?: unknown }).column;
  const rawOrder = (sortBy as { order?: unknown }).order;
  const column = typeof rawColumn === 'string' && SORT_COLUMNS.has(rawColumn) ? rawColumn : 'name';
  const order = typeof rawOrder === 'string' && rawOrder.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const level = prefix.split('/').length;

  const rows = await asCaller(storage, claims, async (q) => {
    const result = await q.query(
      `select name, id, updated_at, created_at, last_accessed_at, metadata from (
         select path_tokens[$3] as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at,
                null::jsonb as metadata, 0 as kind
           from storage.objects
          where bucket_id = $1 and name ilike $2 escape '\\' and array_length(path_tokens, 1) > $3
          group by path_tokens[$3]
         union all
         select path_tokens[$3], id, updated_at, created_at, last_accessed_at, metadata, 1
           from storage.objects
          where bucket_id = $1 and name ilike $2 escape '\\' and array_length(path_tokens, 1) = $3
       ) entries
       order by kind, ${column} ${order} nulls last, name ${order}
       limit $4 offset $5`,
      [bucketId, `${escapeLike(prefix + search)}%`, level, limit, offset],
    );
    return result.rows;
  });
  sendJson(res, 200, rows);
}

// ---------------------------------------------------------------------------------------------
// Move, copy, remove
// ---------------------------------------------------------------------------------------------

type Transfer = { source: string; destinationBucket: string; from: string; to: string };

async function parseTransfer(req: IncomingMessage): Promise<Transfer> {
  const body = await readJson(req);
  for (const name of ['bucketId', 'sourceKey', 'destinationKey']) {
    if (typeof body[name] !== 'string')
      throw ERRORS.badRequest(`body must have required property '${name}'`);
  }
  const source = mustBeValidBucketName(body.bucketId);
  return {
    source,
    destinationBucket:
      body.destinationBucket === undefined || body.destinationBucket === null
        ? source
        : mustBeValidBucketName(body.destinationBucket),
    from: mustBeValidKey(body.sourceKey),
    to: mustBeValidKey(body.destinationKey),
  };
}

/**
 * An object moving or copied into another bucket must meet that bucket's limits; its type is
 * checked again from its bytes, as an upload there would be.
 */
async function checkFitsBucket(storage: Storage, bucket: Bucket, row: ObjectRow): Promise<void> {
  const size = row.metadata?.size ?? 0;
  if (size > sizeLimitOf(bucket)) throw ERRORS.entityTooLarge();
  if (!bucket.allowed_mime_types || bucket.allowed_mime_types.length === 0) return;
  const head = await storage.files.readHead(row.bucket_id, row.name);
  checkType(bucket, head, row.metadata?.mimetype);
}

/** POST /object/move: UPDATE of the row as the caller (needs SELECT and UPDATE), bytes renamed. */
export async function moveObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
): Promise<void> {
  const t = await parseTransfer(req);
  if (t.source === t.destinationBucket && t.from === t.to) {
    sendJson(res, 200, { message: 'Successfully moved' });
    return;
  }
  const destination = await mustFindBucket(storage, t.destinationBucket);
  await withFiles(storage, claims, async (q, changes) => {
    const row = await selectObject(q, t.source, t.from);
    if (!row) throw ERRORS.noSuchKey();
    if (t.source !== t.destinationBucket) await checkFitsBucket(storage, destination, row);
    const { rowCount } = await q.query(
      `update storage.objects set bucket_id = $3, name = $4, version = $5,
              updated_at = now(), last_accessed_at = now()
        where bucket_id = $1 and name = $2`,
      [t.source, t.from, t.destinationBucket, t.to, randomUUID()],
    );
    if (rowCount === 0) throw ERRORS.accessDenied('You are not allowed to move this object');
    await changes.move(
      { bucket: t.source, key: t.from },
      { bucket: t.destinationBucket, key: t.to },
    );
  });
  sendJson(res, 200, { message: 'Successfully moved' });
}

/** POST /object/copy: a new row as the caller (needs SELECT and INSERT), bytes copied. */
export async function copyObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
): Promise<void> {
  const t = await parseTransfer(req);
  const destination = await mustFindBucket(storage, t.destinationBucket);
  const upsert = header(req, 'x-upsert') === 'true';
  const { owner, ownerId } = ownerOf(claims);
  const id = await withFiles(storage, claims, async (q, changes) => {
    const row = await selectObject(q, t.source, t.from);
    if (!row) throw ERRORS.noSuchKey();
    if (t.source === t.destinationBucket && t.from === t.to) return row.id;
    await checkFitsBucket(storage, destination, row);
    const newId: string = randomUUID();
    const values = [
      newId,
      t.destinationBucket,
      t.to,
      owner,
      ownerId,
      JSON.stringify(row.metadata),
      row.user_metadata ? JSON.stringify(row.user_metadata) : null,
      randomUUID(),
    ];
    let copiedId = newId;
    if (upsert) {
      const { rows } = await q.query<{ id: string }>(
        `insert into storage.objects
           (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)
         on conflict (bucket_id, name) do update set
           owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
           user_metadata = excluded.user_metadata, version = excluded.version, updated_at = now()
         returning id`,
        values,
      );
      copiedId = rows[0]!.id;
    } else {
      await q.query(
        `insert into storage.objects
           (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`,
        values,
      );
    }
    await changes.copy(
      { bucket: t.source, key: t.from },
      { bucket: t.destinationBucket, key: t.to },
    );
    return copiedId;
  });
  sendJson(res, 200, { Id: id, Key: `${t.destinationBucket}/${t.to}` });
}

/**
 * Deletes rows as the caller with RETURNING, so objects RLS hides are simply left alone, then
 * sets their bytes aside; they are deleted once the transaction commits.
 */
async function deleteAsCaller(
  storage: Storage,
  claims: JwtClaims,
  bucketId: string,
  keys: string[] | 'all',
): Promise<Record<string, unknown>[]> {
  return withFiles(storage, claims, async (q, changes) => {
    const { rows } = await q.query<ObjectRow>(
      keys === 'all'
        ? `delete from storage.objects where bucket_id = $1 returning ${OBJECT_COLUMNS}`
        : `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
           returning ${OBJECT_COLUMNS}`,
      keys === 'all' ? [bucketId] : [bucketId, keys],
    );
    for (const row of rows) await changes.remove(bucketId, row.name);
    return rows;
  });
}

/** DELETE /object/{bucket} {prefixes}: the deleted objects (those the caller may delete). */
export async function removeObjects(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  const prefixes = body.prefixes;
  if (
    !Array.isArray(prefixes) ||
    prefixes.length === 0 ||
    prefixes.some((p) => typeof p !== 'string')
  ) {
    throw ERRORS.badRequest('body/prefixes must be a non-empty array of strings');
  }
  if (prefixes.length > 1000)
    throw ERRORS.badRequest('body/prefixes must NOT have more than 1000 items');
  const keys = (prefixes as string[]).flatMap((p) => {
    try {
      return [mustBeValidKey(p)];
    } catch {
      return [];
    }
  });
  const deleted = await deleteAsCaller(storage, claims, bucketId, keys);
  sendJson(res, 200, deleted);
}

/** DELETE /object/{bucket}/{key}. */
export async function removeObject(
  storage: Storage,
  res: ServerResponse,
  bucketId: string,
  key: string,
  claims: JwtClaims,
): Promise<void> {
  const deleted = await deleteAsCaller(storage, claims, bucketId, [key]);
  if (deleted.length === 0) throw ERRORS.noSuchKey();
  sendJson(res, 200, { message: 'Successfully deleted' });
}

/** POST /bucket/{id}/empty: every object of the bucket the caller may delete. */
export async function emptyBucketObjects(
  storage: Storage,
  bucketId: string,
  claims: JwtClaims,
): Promise<void> {
  await deleteAsCaller(storage, claims, bucketId, 'all');
}
