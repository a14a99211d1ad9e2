/**
 * The Edge Functions on the local stack (PGlite):
 * - a function's first request (its Deno process starts) and the next ones;
 * - send-mail: how fast a burst queued in internal.mail_outbox reaches the dev mailbox (the
 *   outbox's webhook starts it; one statement queues them all);
 * - check-upload: from a visitor's licence upload (Storage API) to its verdict in
 *   internal.upload_checks (storage.objects webhook → pg_net → check-upload → Storage API).
 *
 * `npx tsx tests/bench/functions.bench.ts`, or `npm run bench -- functions` (default export).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import pg from 'pg';

import { startTestStack } from '../support/stack.ts';
import { nodeClient } from '../support/supabase.ts';
import { isMain, printTable, stats } from './support.ts';

const MAILS = 500;
const UPLOADS = 20;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function until(probe: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export default async function functionsBench(): Promise<{ summary: string[] }> {
  const stack = await startTestStack({ db: 'pglite' });
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    // First and later requests of check-upload and send-email (send-mail is started by the
    // stack's first sweep). A request send-email refuses (no signature) still starts it.
    const call = async (name: string) => {
      const started = performance.now();
      const res = await fetch(`${stack.apiUrl}/functions/v1/${name}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stack.serviceRoleKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ type: 'SWEEP' }),
      });
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const starts: Array<Record<string, string>> = [];
    for (const name of ['check-upload', 'send-email']) {
      const first = await call(name);
      const next: number[] = [];
      for (let i = 0; i < 20; i++) next.push(await call(name));
      starts.push({
        function: name,
        'first request': `${first.toFixed(0)} ms`,
        'next (median)': `${stats(next).median.toFixed(1)} ms`,
      });
    }
    printTable(starts);

    // Mail: one statement queues MAILS rows.
    const tag = randomUUID().slice(0, 8);
    const queued = performance.now();
    await db.query(
      `insert into internal.mail_outbox (to_email, subject, body_text)
       select 'bench-' || $1 || '-' || i || '@example.com', 'Bench ' || i, 'Hello ' || i
         from generate_series(1, $2::int) i`,
      [tag, MAILS],
    );
    await until(async () => {
      const { rows } = await db.query<{ left: string }>(
        `select count(*) as left from internal.mail_outbox
          where to_email like $1 and sent_at is null`,
        [`bench-${tag}-%`],
      );
      return Number(rows[0]!.left) === 0;
    }, 'the mails');
    const mailMs = performance.now() - queued;
    const perSecond = (MAILS / mailMs) * 1000;
    console.info(
      `send-mail: ${MAILS} mails in ${(mailMs / 1000).toFixed(1)} s (${perSecond.toFixed(0)}/s)`,
    );

    // Upload → verdict.
    const visitor = nodeClient(stack.apiUrl, stack.anonKey);
    const checks: number[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const path = `${randomUUID()}/permis.png`;
      const started = performance.now();
      const { error } = await visitor.storage
        .from('licenses')
        .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
      if (error) throw new Error(`upload refused: ${error.message}`);
      await until(async () => {
        const { rows } = await db.query(
          "select 1 from internal.upload_checks where bucket_id = 'licenses' and name = $1",
          [path],
        );
        return rows.length > 0;
      }, 'the verdict');
      checks.push(performance.now() - started);
    }
    const check = stats(checks);
    console.info(
      `check-upload: upload → verdict median ${check.median.toFixed(0)} ms, p95 ${check.p95.toFixed(0)} ms (n=${check.n})`,
    );
    const load = loadavg()[0]!.toFixed(1);
    return {
      summary: [
        ...starts.map(
          (row) =>
            `${row.function}: first request ${row['first request']}, then ${row['next (median)']}`,
        ),
        `send-mail: ${MAILS} queued mails delivered in ${(mailMs / 1000).toFixed(1)} s (${perSecond.toFixed(0)}/s)`,
        `check-upload: upload → verdict median ${check.median.toFixed(0)} ms, p95 ${check.p95.toFixed(0)} ms`,
        `load average ${load}`,
      ],
    };
  } finally {
    await db.end();
    await stack.stop();
  }
}

if (isMain(import.meta.url)) {
  const { summary } = await functionsBench();
  console.info(summary.join('\n'));
  process.exit(0);
}
