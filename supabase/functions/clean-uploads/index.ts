/**
 * clean-uploads: removes booking files (licences, flight documents) that no booking names and
 * that were uploaded more than 7 days ago (edge_stale_uploads lists them), through the Storage
 * API, so each object goes with its bytes. Called every day by the `clean-uploads` schedule.
 * Files a booking names are never listed, and the database skips a file a live booking names
 * even if asked to delete it. Answers `{removed, failed, more}`. docs/functions.md.
 */
import { env, json, refuseUnlessService } from '../_shared/http.ts';
import { rpc, serviceHeaders } from '../_shared/rest.ts';

type Stale = { bucket_id: string; name: string; created_at: string };

/** Files asked for at once (the Storage API deletes at most 1000 per call). */
const BATCH = 100;
/** The schedule's HTTP call (pg_net) waits 10 s: stop asking for more after 8. */
const TIME_BUDGET_MS = 8_000;

/** Deletes `names` of one bucket; the names Storage reports deleted, or null when it refused. */
async function remove(bucket: string, names: string[]): Promise<string[] | null> {
  const res = await fetch(
    `${env('SUPABASE_URL')}/storage/v1/object/${encodeURIComponent(bucket)}`,
    {
      method: 'DELETE',
      headers: { ...serviceHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes: names }),
    },
  );
  if (!res.ok) {
    console.error(
      `clean-uploads: storage answered ${res.status} for ${bucket}: ${await res.text()}`,
    );
    return null;
  }
  const deleted = (await res.json()) as Array<{ name?: unknown }>;
  return deleted.flatMap((object) => (typeof object.name === 'string' ? [object.name] : []));
}

Deno.serve(async (req) => {
  const refused = refuseUnlessService(req);
  if (refused) return refused;
  await req.body?.cancel();
  const deadline = Date.now() + TIME_BUDGET_MS;
  let removed = 0;
  let failed = 0;
  let more = false;
  let after: Stale | null = null;
  for (;;) {
    const stale: Stale[] = await rpc<Stale[]>('edge_stale_uploads', { batch: BATCH, after });
    for (const [bucket, files] of Map.groupBy(stale, (file) => file.bucket_id)) {
      const names = files.map((file) => file.name);
      const deleted = await remove(bucket, names);
      if (deleted === null) {
        failed += names.length;
        continue;
      }
      removed += deleted.length;
      // Not deleted, and no error: another run took it, or a live booking named it meanwhile.
      if (deleted.length < names.length) {
        console.info(`clean-uploads: ${names.length - deleted.length} file(s) of ${bucket} kept`);
      }
    }
    if (stale.length < BATCH) break;
    if (Date.now() > deadline) {
      more = true;
      break;
    }
    after = stale.at(-1)!;
  }
  console.info(`clean-uploads: removed ${removed}, failed ${failed}${more ? ', more left' : ''}`);
  return json({ removed, failed, more });
});
