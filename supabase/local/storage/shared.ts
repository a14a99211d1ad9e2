/**
 * What every storage route needs: who is calling (the bearer JWT), running SQL as them, the
 * buckets' limits, and answering in storage-api's shapes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims, Queryable, ServiceContext } from '../context.ts';
import { JwtError, verifyJwt, type JwtVerifier } from '../jwt.ts';

import { ERRORS, fromDbError, StorageApiError } from './errors.ts';
import type { FileChanges, ObjectFiles } from './files.ts';

/** storage-api's default global upload limit (FILE_SIZE_LIMIT): 50 MB. */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export type Storage = {
  ctx: ServiceContext;
  files: ObjectFiles;
};

export type Bucket = {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
};

export const BUCKET_COLUMNS =
  'id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at';

/** Postgres bigint arrives as a string. */
export function toBucket(row: Record<string, unknown>): Bucket {
  const limit = row.file_size_limit;
  return {
    ...(row as unknown as Bucket),
    public: row.public === true,
    file_size_limit: limit === null || limit === undefined ? null : Number(limit),
  };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function jwtMessage(error: unknown): string {
  if (error instanceof JwtError) {
    if (error.reason === 'expired') return 'jwt expired';
    if (error.reason === 'bad_signature') return 'invalid signature';
    if (error.reason === 'unknown_key') return 'no applicable key found in the JSON Web Key Set';
  }
  return 'jwt malformed';
}

/**
 * The caller's verified claims, from `Authorization: Bearer …` (or the `apikey` header, which
 * supabase-js always sends). The anon key gives role anon; the service-role key service_role,
 * which bypasses RLS; a user's access token authenticated with its `sub`.
 * `lenient` routes (storage-api's allowInvalidJwt) treat a missing or bad token as anon.
 */
export function callerClaims(
  req: IncomingMessage,
  keys: string | JwtVerifier,
  lenient = false,
): JwtClaims {
  const claims = verifiedClaims(req, keys, lenient);
  requestHeaders.set(claims, headersOf(req));
  return claims;
}

function verifiedClaims(
  req: IncomingMessage,
  keys: string | JwtVerifier,
  lenient: boolean,
): JwtClaims {
  const authorization = header(req, 'authorization');
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const token = bearer || header(req, 'apikey');
  if (!token) {
    if (lenient) return { role: 'anon' };
    throw ERRORS.accessDenied('No authorization token was found');
  }
  let claims: JwtClaims;
  try {
    claims = verifyJwt<JwtClaims>(token, keys);
  } catch (error) {
    if (lenient) return { role: 'anon' };
    throw ERRORS.accessDenied(jwtMessage(error));
  }
  if (typeof claims.role !== 'string' || !API_ROLES.has(claims.role)) {
    if (lenient) return { role: 'anon' };
    throw ERRORS.accessDenied('The token does not carry an API role');
  }
  return claims;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `owner` (uuid) and `owner_id` (text) of what the caller creates, as storage-api sets them. */
export function ownerOf(claims: JwtClaims): { owner: string | null; ownerId: string | null } {
  const sub = typeof claims.sub === 'string' && claims.sub ? claims.sub : null;
  return { owner: sub && UUID.test(sub) ? sub : null, ownerId: sub };
}

/**
 * The headers of the request each caller's claims came from: storage-api hands them to Postgres
 * as `request.headers`, so policies see the client's address (internal.client_address).
 */
const requestHeaders = new WeakMap<JwtClaims, Record<string, string>>();

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Runs `fn` in a transaction as the caller (their role and claims, so RLS decides). */
export async function asCaller<T>(
  storage: Storage,
  claims: JwtClaims,
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await storage.ctx.db.asClaims(claims, fn, requestHeaders.get(claims));
  } catch (error) {
    throw fromDbError(error);
  }
}

/**
 * Runs a database change as the caller together with its file changes: both land, or neither
 * (the file changes are undone when the transaction fails, including at commit).
 */
export async function withFiles<T>(
  storage: Storage,
  claims: JwtClaims,
  fn: (q: Queryable, changes: FileChanges) => Promise<T>,
  duplicate: 'KeyAlreadyExists' | 'ResourceAlreadyExists' = 'KeyAlreadyExists',
): Promise<T> {
  const changes = storage.files.changes();
  let result: T;
  try {
    result = await storage.ctx.db.asClaims(
      claims,
      (q) => fn(q, changes),
      requestHeaders.get(claims),
    );
  } catch (error) {
    await changes.rollback();
    throw fromDbError(error, duplicate);
  }
  await changes.commit();
  return result;
}

/** A bucket as the database owner sees it (storage-api's `asSuperUser().findBucket`). */
export async function findBucket(storage: Storage, id: string): Promise<Bucket | null> {
  const { rows } = await storage.ctx.db.query(
    `select ${BUCKET_COLUMNS} from storage.buckets where id = $1`,
    [id],
  );
  return rows[0] ? toBucket(rows[0]) : null;
}

export async function mustFindBucket(storage: Storage, id: string): Promise<Bucket> {
  const bucket = await findBucket(storage, id);
  if (!bucket) throw ERRORS.noSuchBucket();
  return bucket;
}

/** The largest object a bucket accepts: its own limit, within the global one. */
export function sizeLimitOf(bucket: Bucket): number {
  return bucket.file_size_limit && bucket.file_size_limit > 0
    ? Math.min(bucket.file_size_limit, GLOBAL_FILE_SIZE_LIMIT)
    : GLOBAL_FILE_SIZE_LIMIT;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
  });
  res.end(payload);
}

export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  log: (message: string) => void,
): void {
  if (res.headersSent) {
    // The answer was under way (e.g. the client went away mid-download): just end it.
    res.destroy();
    return;
  }
  let failure: StorageApiError;
  if (error instanceof StorageApiError) {
    failure = error;
  } else {
    log(`storage: ${(error as Error)?.stack ?? String(error)}`);
    failure = ERRORS.internal();
  }
  if (req.method === 'HEAD') {
    res.writeHead(failure.httpStatus, { 'cache-control': 'no-store' });
    res.end();
    return;
  }
  sendJson(res, failure.httpStatus, failure.render());
}

/** A positive integer from a JSON body, or the default; 400 otherwise. */
export function intParam(value: unknown, name: string, fallback: number, min = 0): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
    throw ERRORS.badRequest(`body/${name} must be an integer >= ${min}`);
  }
  return n;
}
