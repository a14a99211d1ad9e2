/**
 * The bucket routes: list, get, create, update, empty and delete — each a statement on
 * storage.buckets as the caller, so RLS decides (the service role bypasses it; users have no
 * bucket policies unless a migration grants some).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../context.ts';

import { readJson } from './body.ts';
import { ERRORS } from './errors.ts';
import { mustBeValidBucketName } from './keys.ts';
import { emptyBucketObjects } from './routes/object/delete.ts';
import {
  asCaller,
  BUCKET_COLUMNS,
  findBucket,
  GLOBAL_FILE_SIZE_LIMIT,
  ownerOf,
  sendJson,
  toBucket,
  type Bucket,
  type Storage,
} from './shared.ts';

function render(bucket: Bucket) {
  return { ...bucket, type: 'STANDARD' };
}

/** storage-api's `parseFileSizeToBytes`: a number of bytes, or `20GB` / `5MB` / `30KB` / `3B`. */
export function parseFileSizeLimit(value: unknown): number | null {
  if (value === null || value === '') return null;
  let bytes: number;
  if (typeof value === 'number') {
    bytes = value;
  } else if (typeof value === 'string') {
    const match = /^([0-9]+(?:\.[0-9]+)?)\s*(gb|mb|kb|b)?$/i.exec(value.trim());
    if (!match) {
      throw ERRORS.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
    }
    const unit = (match[2] ?? 'b').toUpperCase();
    const scale = unit === 'GB' ? 1e9 : unit === 'MB' ? 1e6 : unit === 'KB' ? 1e3 : 1;
    bytes = Math.round(Number(parseFloat(match[1]!).toPrecision(3)) * scale);
  } else {
    throw ERRORS.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  }
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw ERRORS.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  }
  if (bytes > GLOBAL_FILE_SIZE_LIMIT) throw ERRORS.entityTooLarge('file size limit');
  return bytes === 0 ? null : bytes;
}

const MIME_PATTERN = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+|\*)$/;

export function parseAllowedMimeTypes(value: unknown): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw ERRORS.badRequest('body/allowed_mime_types must be array');
  for (const type of value) {
    if (typeof type !== 'string' || !(type === '*/*' || MIME_PATTERN.test(type.trim()))) {
      throw ERRORS.invalidMimeType(String(type));
    }
  }
  return (value as string[]).map((type) => type.trim().toLowerCase());
}

function wantsPublic(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw ERRORS.badRequest('body/public must be boolean');
  return value;
}

/** GET /bucket?limit&offset&search&sortColumn&sortOrder: the buckets the caller may see. */
export async function listBuckets(
  storage: Storage,
  res: ServerResponse,
  url: URL,
  claims: JwtClaims,
): Promise<void> {
  const params = url.searchParams;
  const column = ['id', 'name', 'created_at', 'updated_at'].includes(params.get('sortColumn') ?? '')
    ? params.get('sortColumn')
    : 'name';
  const order = params.get('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const limit = Number(params.get('limit') ?? 'NaN');
  const offset = Number(params.get('offset') ?? '0');
  const search = params.get('search') ?? '';
  const rows = await asCaller(storage, claims, async (q) => {
    const result = await q.query(
      `select ${BUCKET_COLUMNS} from storage.buckets
        where $1 = '' or name ilike '%' || $1 || '%'
        order by ${column} ${order}
        limit $2 offset $3`,
      [
        search,
        Number.isInteger(limit) && limit >= 0 ? limit : null,
        Number.isInteger(offset) && offset >= 0 ? offset : 0,
      ],
    );
    return result.rows;
  });
  sendJson(
    res,
    200,
    rows.map((row) => render(toBucket(row))),
  );
}

/** GET /bucket/{id}. */
export async function getBucket(
  storage: Storage,
  res: ServerResponse,
  id: string,
  claims: JwtClaims,
): Promise<void> {
  const rows = await asCaller(storage, claims, async (q) => {
    const result = await q.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [
      id,
    ]);
    return result.rows;
  });
  if (!rows[0]) throw ERRORS.noSuchBucket();
  sendJson(res, 200, render(toBucket(rows[0])));
}

/** POST /bucket {id, name, public, file_size_limit, allowed_mime_types} → {name}. */
export async function createBucket(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  const name = mustBeValidBucketName(body.name);
  const id = body.id === undefined || body.id === null ? name : mustBeValidBucketName(body.id);
  if (body.type !== undefined && body.type !== null && body.type !== 'STANDARD') {
    throw ERRORS.invalidRequest(`Bucket type ${String(body.type)} is not supported locally`);
  }
  const isPublic = wantsPublic(body.public) ?? false;
  const limit =
    body.file_size_limit === undefined ? null : parseFileSizeLimit(body.file_size_limit);
  const mimeTypes =
    body.allowed_mime_types === undefined ? null : parseAllowedMimeTypes(body.allowed_mime_types);
  const { owner, ownerId } = ownerOf(claims);
  try {
    await asCaller(storage, claims, (q) =>
      q.query(
        `insert into storage.buckets
           (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, name, owner, ownerId, isPublic, limit, mimeTypes],
      ),
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'ResourceAlreadyExists') {
      throw ERRORS.duplicate('BucketAlreadyExists');
    }
    throw error;
  }
  sendJson(res, 200, { name: id });
}

/** PUT /bucket/{id} {public, file_size_limit, allowed_mime_types}: only the fields given. */
export async function updateBucket(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  const sets: string[] = [];
  const values: unknown[] = [id];
  const isPublic = wantsPublic(body.public);
  if (isPublic !== undefined) {
    values.push(isPublic);
    sets.push(`public = $${values.length}`);
  }
  if (body.file_size_limit !== undefined) {
    values.push(parseFileSizeLimit(body.file_size_limit));
    sets.push(`file_size_limit = $${values.length}`);
  }
  if (body.allowed_mime_types !== undefined) {
    values.push(parseAllowedMimeTypes(body.allowed_mime_types));
    sets.push(`allowed_mime_types = $${values.length}`);
  }
  const updated = await asCaller(storage, claims, async (q) => {
    const result = await q.query(
      `update storage.buckets set ${[...sets, 'updated_at = now()'].join(', ')}
        where id = $1 returning id`,
      values,
    );
    return result.rowCount;
  });
  if (updated === 0) throw ERRORS.noSuchBucket();
  sendJson(res, 200, { message: 'Successfully updated' });
}

/** POST /bucket/{id}/empty: deletes the objects the caller may delete. */
export async function emptyBucket(
  storage: Storage,
  res: ServerResponse,
  id: string,
  claims: JwtClaims,
): Promise<void> {
  const visible = await asCaller(storage, claims, async (q) => {
    const result = await q.query('select id from storage.buckets where id = $1', [id]);
    return result.rowCount > 0;
  });
  if (!visible) throw ERRORS.noSuchBucket();
  await emptyBucketObjects(storage, id, claims);
  sendJson(res, 200, { message: 'Successfully emptied' });
}

/** DELETE /bucket/{id}: only an empty bucket (409 otherwise), as the caller. */
export async function deleteBucket(
  storage: Storage,
  res: ServerResponse,
  id: string,
  claims: JwtClaims,
): Promise<void> {
  if (!(await findBucket(storage, id))) throw ERRORS.noSuchBucket();
  const { rows } = await storage.ctx.db.query(
    'select 1 from storage.objects where bucket_id = $1 limit 1',
    [id],
  );
  if (rows.length > 0) throw ERRORS.bucketNotEmpty();
  let deleted: number;
  try {
    deleted = await asCaller(storage, claims, async (q) => {
      const result = await q.query('delete from storage.buckets where id = $1 returning id', [id]);
      return result.rowCount;
    });
  } catch (error) {
    // An object uploaded meanwhile: the foreign key keeps the bucket.
    if ((error as { statusCode?: number }).statusCode === 404) throw ERRORS.bucketNotEmpty();
    throw error;
  }
  if (deleted === 0) throw ERRORS.noSuchBucket();
  await storage.files.removeBucketDir(id);
  sendJson(res, 200, { message: 'Successfully deleted' });
}
