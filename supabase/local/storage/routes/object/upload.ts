/** POST / PUT /object/{bucket}/{key}: upload, upsert and update (storage-api's upload routes). */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { verifyFileType } from '../../../../../src/domain/file-sniff.ts';
import type { JwtClaims } from '../../../context.ts';
import { receiveUpload, TooLarge } from '../../body.ts';
import { ERRORS } from '../../errors.ts';
import {
  mustFindBucket,
  ownerOf,
  sendJson,
  sizeLimitOf,
  withFiles,
  type Bucket,
  type Storage,
} from '../../shared.ts';
import type { ObjectMetadata } from './rows.ts';

export type UploadMode = 'create' | 'upsert' | 'update';

/** Checks a file's type, from its bytes, against a bucket's allowed types (415 if refused). */
export function checkType(
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
