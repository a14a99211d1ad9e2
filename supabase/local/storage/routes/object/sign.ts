/** POST /object/sign/… and GET /object/sign/…?token=: signed URLs. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { signJwt, verifyJwt, JwtError } from '../../../jwt.ts';
import { readJson } from '../../body.ts';
import { ERRORS } from '../../errors.ts';
import { mustBeValidKey } from '../../keys.ts';
import { asCaller, intParam, sendJson, type Storage } from '../../shared.ts';
import { serveObject, downloadParam } from './get.ts';
import { findAsCaller, findAsOwner } from './rows.ts';

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
