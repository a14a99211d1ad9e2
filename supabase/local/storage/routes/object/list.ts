/** POST /object/list/{bucket}: the folders and files under a prefix. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { readJson } from '../../body.ts';
import { asCaller, intParam, sendJson, type Storage } from '../../shared.ts';

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * POST /object/list/{bucket} {prefix, limit, offset, sortBy, search}: the folders (id null) and
 * files directly under `prefix`, like storage-api's `storage.search()`, as the caller.
 */
export async function listObjects(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  bucketId: string,
  claims: JwtClaims,
): Promise<void> {
  const body = await readJson(req);
  let prefix =
    typeof body.prefix === 'string' ? body.prefix.replace(/\/+/g, '/').replace(/^\//, '') : '';
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
  const search = typeof body.search === 'string' ? body.search : '';
  const limit = intParam(body.limit, 'limit', 100, 0);
  const offset = intParam(body.offset, 'offset', 0, 0);
  const sortBy = (typeof body.sortBy === 'object' && body.sortBy) || {};
  const rawColumn = (sortBy as { column?: unknown }).column;
  const rawOrder = (sortBy as { order?: unknown }).order;
  const column = typeof rawColumn === 'string' && SORT_COLUMNS.has(rawColumn) ? rawColumn : 'name';
  const order = typeof rawOrder === 'string' && rawOrder.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const level = prefix.split('/').length;

  const rows = await asCaller(storage, claims, async (q) => {
    const result = await q.query(
      `select name, id, updated_at, created_at, last_accessed_at, metadata from (
         select path_tokens[$3] as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at,
                null::jsonb as metadata, 0 as kind
           from storage.objects
          where bucket_id = $1 and name ilike $2 escape '\\' and array_length(path_tokens, 1) > $3
          group by path_tokens[$3]
         union all
         select path_tokens[$3], id, updated_at, created_at, last_accessed_at, metadata, 1
           from storage.objects
          where bucket_id = $1 and name ilike $2 escape '\\' and array_length(path_tokens, 1) = $3
       ) entries
       order by kind, ${column} ${order} nulls last, name ${order}
       limit $4 offset $5`,
      [bucketId, `${escapeLike(prefix + search)}%`, level, limit, offset],
    );
    return result.rows;
  });
  sendJson(res, 200, rows);
}
