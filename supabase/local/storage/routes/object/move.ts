/** POST /object/move. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { JwtClaims } from '../../../context.ts';
import { ERRORS } from '../../errors.ts';
import { mustFindBucket, sendJson, withFiles, type Storage } from '../../shared.ts';
import { selectObject } from './rows.ts';
import { parseTransfer, checkFitsBucket } from './transfer.ts';

/** POST /object/move: UPDATE of the row as the caller (needs SELECT and UPDATE), bytes renamed. */
export async function moveObject(
  storage: Storage,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
): Promise<void> {
  const t = await parseTransfer(req);
  if (t.source === t.destinationBucket && t.from === t.to) {
    sendJson(res, 200, { message: 'Successfully moved' });
    return;
  }
  const destination = await mustFindBucket(storage, t.destinationBucket);
  await withFiles(storage, claims, async (q, changes) => {
    const row = await selectObject(q, t.source, t.from);
    if (!row) throw ERRORS.noSuchKey();
    if (t.source !== t.destinationBucket) await checkFitsBucket(storage, destination, row);
    const { rowCount } = await q.query(
      `update storage.objects set bucket_id = $3, name = $4, version = $5,
              updated_at = now(), last_accessed_at = now()
        where bucket_id = $1 and name = $2`,
      [t.source, t.from, t.destinationBucket, t.to, randomUUID()],
    );
    if (rowCount === 0) throw ERRORS.accessDenied('You are not allowed to move this object');
    await changes.move(
      { bucket: t.source, key: t.from },
      { bucket: t.destinationBucket, key: t.to },
    );
  });
  sendJson(res, 200, { message: 'Successfully moved' });
}
