/** GET /object/info/… and HEAD /object/…: an object's metadata (supabase-js `info`, `exists`). */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { ERRORS } from '../../errors.ts';
import { findBucket, sendJson, type Storage } from '../../shared.ts';
import { serveObject, findPublicBucket } from './get.ts';
import { findAsCaller, findAsOwner } from './rows.ts';

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
