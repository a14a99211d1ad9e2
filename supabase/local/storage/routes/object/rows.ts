/** An object's row in storage.objects, read as the caller or as the owner. */
import type { JwtClaims, Queryable } from '../../../context.ts';
import { ERRORS } from '../../errors.ts';
import { asCaller, type Storage } from '../../shared.ts';

export type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

export type ObjectRow = {
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

export const OBJECT_COLUMNS =
  'id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

export async function selectObject(
  q: Queryable,
  bucket: string,
  key: string,
): Promise<ObjectRow | null> {
  const { rows } = await q.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  );
  return rows[0] ?? null;
}

/** The object as the caller may see it (RLS), or 404 — also when RLS hides it. */
export async function findAsCaller(
  storage: Storage,
  claims: JwtClaims,
  bucket: string,
  key: string,
): Promise<ObjectRow> {
  const row = await asCaller(storage, claims, (q) => selectObject(q, bucket, key));
  if (!row) throw ERRORS.noSuchKey();
  return row;
}

export async function findAsOwner(
  storage: Storage,
  bucket: string,
  key: string,
): Promise<ObjectRow> {
  const row = await selectObject(storage.ctx.db, bucket, key);
  if (!row) throw ERRORS.noSuchKey();
  return row;
}
