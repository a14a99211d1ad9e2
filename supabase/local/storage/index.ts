/**
 * The local storage API, mounted by the gateway at `/storage/v1`: the subset of Supabase's
 * storage-api that supabase-js 2 calls (docs/storage.md lists the routes). Metadata lives in
 * storage.buckets / storage.objects, decided by their RLS policies as the caller; bytes live in
 * `<storageDir>/<bucket>/<key>`.
 */
import type { ApiFactory, JwtClaims } from '../context.ts';

import * as buckets from './buckets.ts';
import { ERRORS } from './errors.ts';
import { ObjectFiles } from './files.ts';
import { decodePath, mustBeValidBucketName, splitBucketAndKey } from './keys.ts';
import { copyObject } from './routes/object/copy.ts';
import { removeObject, removeObjects } from './routes/object/delete.ts';
import { getObject, getPublicObject } from './routes/object/get.ts';
import { objectInfo } from './routes/object/info.ts';
import { listObjects } from './routes/object/list.ts';
import { moveObject } from './routes/object/move.ts';
import { createSignedUrl, createSignedUrls, getSignedObject } from './routes/object/sign.ts';
import { uploadObject } from './routes/object/upload.ts';
import { callerClaims, header, sendError, type Storage } from './shared.ts';

export const createStorageApi: ApiFactory = (ctx) => {
  const storage: Storage = { ctx, files: new ObjectFiles(ctx.config.storageDir) };
  const keys = ctx.config.signingKeys;

  return async (req, res, rawPath, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    try {
      const path = decodePath(rawPath);
      if (path === null) throw ERRORS.badRequest('The path is not valid percent-encoding');
      const segments = path.split('/').filter((s, i) => i > 0 || s !== '');
      const [area, second] = segments;
      const rest = (from: number) => segments.slice(from).join('/');
      const caller = (lenient = false): JwtClaims => callerClaims(req, keys, lenient);
      const read = method === 'GET' || method === 'HEAD';

      if (area === 'bucket') {
        const id = second === undefined ? undefined : mustBeValidBucketName(second);
        if (id === undefined && segments.length === 1) {
          if (method === 'GET') return await buckets.listBuckets(storage, res, url, caller());
          if (method === 'POST') return await buckets.createBucket(storage, req, res, caller());
        } else if (id !== undefined && segments.length === 2) {
          if (method === 'GET') return await buckets.getBucket(storage, res, id, caller());
          if (method === 'PUT') return await buckets.updateBucket(storage, req, res, id, caller());
          if (method === 'DELETE') return await buckets.deleteBucket(storage, res, id, caller());
        } else if (id !== undefined && segments.length === 3 && segments[2] === 'empty') {
          if (method === 'POST') return await buckets.emptyBucket(storage, res, id, caller());
        }
      } else if (area === 'object') {
        if (
          method === 'POST' &&
          segments.length === 2 &&
          (second === 'move' || second === 'copy')
        ) {
          return second === 'move'
            ? await moveObject(storage, req, res, caller())
            : await copyObject(storage, req, res, caller());
        }
        if (second === 'upload' && segments[2] === 'sign') {
          // Signed upload URLs (createSignedUploadUrl) are not part of the local subset.
          throw ERRORS.routeNotFound(method, `/storage/v1${rawPath}`);
        }
        if (second === 'list' && segments.length === 3 && method === 'POST') {
          const bucket = mustBeValidBucketName(segments[2]);
          return await listObjects(storage, req, res, bucket, caller());
        }
        if (second === 'sign' && segments.length >= 3) {
          if (method === 'POST' && segments.length === 3) {
            const bucket = mustBeValidBucketName(segments[2]);
            return await createSignedUrls(storage, req, res, bucket, caller());
          }
          const { bucket, key } = splitBucketAndKey(rest(2));
          if (method === 'POST') {
            return await createSignedUrl(storage, req, res, bucket, key, caller());
          }
          if (read) return await getSignedObject(storage, req, res, url, bucket, key);
        }
        if (second === 'info' && segments.length >= 4) {
          const scope = segments[2];
          if (method === 'GET' && scope === 'public') {
            const { bucket, key } = splitBucketAndKey(rest(3));
            return await objectInfo(storage, req, res, bucket, key, 'public', 'info');
          }
          if (method === 'GET') {
            const authenticated = scope === 'authenticated';
            const { bucket, key } = splitBucketAndKey(rest(authenticated ? 3 : 2));
            const claims = caller(!authenticated);
            return await objectInfo(storage, req, res, bucket, key, claims, 'info');
          }
        }
        if (second === 'public' && segments.length >= 4 && read) {
          const { bucket, key } = splitBucketAndKey(rest(2));
          return await getPublicObject(storage, req, res, url, bucket, key);
        }
        if (second === 'authenticated' && segments.length >= 4 && read) {
          const { bucket, key } = splitBucketAndKey(rest(2));
          if (method === 'HEAD') {
            return await objectInfo(storage, req, res, bucket, key, caller(), 'head');
          }
          return await getObject(storage, req, res, url, bucket, key, caller());
        }
        if (segments.length === 2 && method === 'DELETE') {
          const bucket = mustBeValidBucketName(second);
          return await removeObjects(storage, req, res, bucket, caller());
        }
        if (segments.length >= 3) {
          const { bucket, key } = splitBucketAndKey(rest(1));
          switch (method) {
            case 'GET':
              return await getObject(storage, req, res, url, bucket, key, caller());
            case 'HEAD':
              return await objectInfo(storage, req, res, bucket, key, caller(true), 'head');
            case 'POST': {
              const upsert = header(req, 'x-upsert') === 'true';
              const mode = upsert ? 'upsert' : 'create';
              return await uploadObject(storage, req, res, bucket, key, caller(), mode);
            }
            case 'PUT':
              return await uploadObject(storage, req, res, bucket, key, caller(), 'update');
            case 'DELETE':
              return await removeObject(storage, res, bucket, key, caller());
          }
        }
      }
      throw ERRORS.routeNotFound(method, `/storage/v1${rawPath}`);
    } catch (error) {
      // Whatever the route did not read of the body is drained, so the connection stays usable.
      if (!req.complete && !res.getHeader('connection')) req.resume();
      sendError(req, res, error, ctx.log);
    }
  };
};
