/** POST /object/copy. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { ERRORS } from '../../errors.ts';
import {
  header,
  mustFindBucket,
  ownerOf,
  sendJson,
  withFiles,
  type Storage,
} from '../../shared.ts';
import { selectObject } from './rows.ts';
import { parseTransfer, checkFitsBucket } from './transfer.ts';

/** POST /object/copy: a new row as the caller (needs SELECT and INSERT), bytes copied. */
export async function copyObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
): Promise<void> {
  const t = await parseTransfer(req);
  const destination = await mustFindBucket(storage, t.destinationBucket);
  const upsert = header(req, 'x-upsert') === 'true';
  const { owner, ownerId } = ownerOf(claims);
  const id = await withFiles(storage, claims, async (q, changes) => {
    const row = await selectObject(q, t.source, t.from);
    if (!row) throw ERRORS.noSuchKey();
    if (t.source === t.destinationBucket && t.from === t.to) return row.id;
    await checkFitsBucket(storage, destination, row);
    const newId: string = randomUUID();
    const values = [
      newId,
      t.destinationBucket,
      t.to,
      owner,
      ownerId,
      JSON.stringify(row.metadata),
      row.user_metadata ? JSON.stringify(row.user_metadata) : null,
      randomUUID(),
    ];
    let copiedId = newId;
    if (upsert) {
      const { rows } = await q.query<{ id: string }>(
        `insert into storage.objects
           (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)
         on conflict (bucket_id, name) do update set
           owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
           user_metadata = excluded.user_metadata, version = excluded.version, updated_at = now()
         returning id`,
        values,
      );
      copiedId = rows[0]!.id;
    } else {
      await q.query(
        `insert into storage.objects
           (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`,
        values,
      );
    }
    await changes.copy(
      { bucket: t.source, key: t.from },
      { bucket: t.destinationBucket, key: t.to },
    );
    return copiedId;
  });
  sendJson(res, 200, { Id: id, Key: `${t.destinationBucket}/${t.to}` });
}
