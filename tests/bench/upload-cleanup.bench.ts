/**
 * The daily upload cleanup on the local stack: ORPHANS licences uploaded by visitors through the
 * Storage API (each in a folder no booking has), set back 8 days, then one run of the
 * `clean-uploads` job as pg_cron runs it (its command → pg_net → the Edge Function → the Storage
 * API's delete). Measures the run from the job's command to the function's answer, and checks
 * that every orphan is gone. PGlite, or PostgreSQL 15 with KIRAA_TEST_DB=postgres.
 *
 * `npx tsx tests/bench/upload-cleanup.bench.ts`, or `npm run bench -- upload-cleanup`.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import pg from 'pg';

import { startTestStack } from '../support/stack.ts';
import { nodeClient } from '../support/supabase.ts';
import { isMain } from './support.ts';

const ORPHANS = 1000;
const UPLOADERS = 8;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export default async function uploadCleanupBench(): Promise<{ summary: string[] }> {
  const stack = await startTestStack();
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const visitor = nodeClient(stack.apiUrl, stack.anonKey);
    const tag = randomUUID().slice(0, 8);
    const names: string[] = [];
    const uploadStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: UPLOADERS }, async () => {
        while (next < ORPHANS) {
          next++;
          const name = `${randomUUID()}/permis-${tag}.png`;
          const { error } = await visitor.storage
            .from('licenses')
            .upload(name, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
          if (error) throw new Error(`upload refused: ${error.message}`);
          names.push(name);
        }
      }),
    );
    const uploadS = (performance.now() - uploadStarted) / 1000;
    console.info(`${ORPHANS} orphans uploaded in ${uploadS.toFixed(1)} s`);
    // Every upload's webhook (check-upload) done first: the job's call queues behind them.
    for (;;) {
      const { rows } = await db.query<{ queued: string; checked: string }>(
        `select (select count(*) from net.http_request_queue) as queued,
                (select count(*) from internal.upload_checks
                  where bucket_id = 'licenses' and name = any($1::text[])) as checked`,
        [names],
      );
      if (Number(rows[0]!.queued) === 0 && Number(rows[0]!.checked) === ORPHANS) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await db.query(
      `update storage.objects set created_at = now() - interval '8 days'
        where bucket_id = 'licenses' and name = any($1::text[])`,
      [names],
    );

    const { rows: jobs } = await db.query<{ command: string }>(
      "select command from cron.job where jobname = 'clean-uploads'",
    );
    const started = performance.now();
    const { rows: calls } = await db.query<Record<string, string>>(jobs[0]!.command);
    const requestId = Object.values(calls[0]!)[0];
    let answer: { status_code: number; content: string } | undefined;
    while (!answer) {
      const { rows } = await db.query<{ status_code: number; content: string }>(
        'select status_code, content from net._http_response where id = $1',
        [requestId],
      );
      answer = rows[0];
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const runMs = performance.now() - started;
    const { rows: left } = await db.query<{ count: string }>(
      `select count(*) from storage.objects where bucket_id = 'licenses' and name = any($1::text[])`,
      [names],
    );
    console.info(
      `clean-uploads: ${answer.status_code} ${answer.content} in ${(runMs / 1000).toFixed(2)} s; ${left[0]!.count} of ${ORPHANS} left`,
    );
    const load = loadavg()[0]!.toFixed(1);
    return {
      summary: [
        `${stack.engine}: ${ORPHANS} orphans removed by one run in ${(runMs / 1000).toFixed(2)} s (${answer.content}); ${left[0]!.count} left`,
        `load average ${load}`,
      ],
    };
  } finally {
    await db.end();
    await stack.stop();
  }
}

if (isMain(import.meta.url)) {
  const { summary } = await uploadCleanupBench();
  console.info(summary.join('\n'));
  process.exit(0);
}
