/** What move and copy share: the request body and the destination bucket's limits. */
import type { IncomingMessage } from 'node:http';

import { readJson } from '../../body.ts';
import { ERRORS } from '../../errors.ts';
import { mustBeValidBucketName, mustBeValidKey } from '../../keys.ts';
import { sizeLimitOf, type Bucket, type Storage } from '../../shared.ts';
import type { ObjectRow } from './rows.ts';
import { checkType } from './upload.ts';

type Transfer = { source: string; destinationBucket: string; from: string; to: string };

export async function parseTransfer(req: IncomingMessage): Promise<Transfer> {
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
export async function checkFitsBucket(
  storage: Storage,
  bucket: Bucket,
  row: ObjectRow,
): Promise<void> {
  const size = row.metadata?.size ?? 0;
  if (size > sizeLimitOf(bucket)) throw ERRORS.entityTooLarge();
  if (!bucket.allowed_mime_types || bucket.allowed_mime_types.length === 0) return;
  const head = await storage.files.readHead(row.bucket_id, row.name);
  checkType(bucket, head, row.metadata?.mimetype);
}
