/**
 * send-mail: sends what the database queued in `internal.mail_outbox` through the mail provider.
 * Called by the outbox's webhook (a row was queued) and every minute by the schedule (retries,
 * and anything a webhook missed), always with the service-role key. Rows are leased with
 * `for update skip locked` (edge_claim_mail), so two calls at once never take the same row; each
 * is sent with its id as the provider's idempotency key, so a send retried after a crash is not
 * delivered twice; a failure is retried with backoff (edge_settle_mail). docs/functions.md.
 */
import { json, refuseUnlessService } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { rpc } from '../_shared/rest.ts';

type OutboxRow = {
  id: number;
  to_email: string;
  subject: string;
  body_text: string;
  body_html?: string | null;
  // Columns added later are ignored.
  [column: string]: unknown;
};

const BATCH = 20;
/** A call stops taking new batches after this long (the schedule's next call goes on). */
const BUDGET_MS = 20_000;

Deno.serve(async (req) => {
  const refused = refuseUnlessService(req);
  if (refused) return refused;
  await req.body?.cancel();

  const started = Date.now();
  let sent = 0;
  let retried = 0;
  let failed = 0;
  while (Date.now() - started < BUDGET_MS) {
    const rows = await rpc<OutboxRow[]>('edge_claim_mail', { batch: BATCH });
    for (const row of rows) {
      const result = await sendMail(
        {
          to: row.to_email,
          subject: row.subject,
          text: row.body_text,
          ...(typeof row.body_html === 'string' ? { html: row.body_html } : {}),
        },
        `kiraa-mail-outbox-${row.id}`,
      );
      if (result.ok) {
        await rpc('edge_settle_mail', { mail_id: row.id, provider_id: result.id });
        sent++;
      } else {
        console.error(`send-mail: mail ${row.id}: ${result.error}`);
        await rpc('edge_settle_mail', {
          mail_id: row.id,
          error: result.error,
          permanent: result.permanent,
        });
        if (result.permanent) failed++;
        else retried++;
      }
    }
    if (rows.length < BATCH) break;
  }
  return json({ sent, retried, failed });
});
