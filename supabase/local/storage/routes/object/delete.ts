/** DELETE /object/{bucket}[/{key}] and emptying a bucket: deletes as the caller. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { readJson } from '../../body.ts';
import { ERRORS } from '../../errors.ts';
import { mustBeValidKey } from '../../keys.ts';
import { sendJson, withFiles, type Storage } from '../../shared.ts';
import { type ObjectRow, OBJECT_COLUMNS } from './rows.ts';

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
