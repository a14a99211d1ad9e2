/**
 * The object routes of storage-api that supabase-js calls, one file per route as storage-api's
 * `src/http/routes/object/` has them. Every read and write runs as the caller, so the RLS
 * policies on storage.objects decide.
 */
export { copyObject } from './copy.ts';
export { emptyBucketObjects, removeObject, removeObjects } from './delete.ts';
export { getObject, getPublicObject } from './get.ts';
export { objectInfo } from './info.ts';
export { listObjects } from './list.ts';
export { moveObject } from './move.ts';
export type { ObjectMetadata } from './rows.ts';
export { createSignedUrl, createSignedUrls, getSignedObject } from './sign.ts';
export { uploadObject, type UploadMode } from './upload.ts';
