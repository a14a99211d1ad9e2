/**
 * send-mail: sends what the database queued in `internal.mail_outbox` through the mail provider.
 * Called by the outbox's webhook and every minute by the schedule (retries, and anything a
 * webhook missed), always with the service-role key. Rows are leased with `for update skip locked`
 * (edge_claim_mail), so two calls at once never take the same row. A claim is one batch, sent in
 * one request to the provider under the batch's key (`kiraa-mail-batch-<batch_key>`): the claim
 * stamps the key on its rows before they leave, and a batch tried before is claimed again whole
 * and alone, so a request retried after a crash or a lost answer is the same request and is not
 * delivered twice. A failure is retried with backoff (edge_settle_mails).
 *
 * One sender at a time: a call first takes the hold of the outbox, and leaves at once when another
 * running sender has it. While it runs its claims keep the hold 4 to 5 s ahead, and rows queued
 * meanwhile call no webhook; it takes them at its next claim. When the outbox has stayed empty for
 * LINGER_MS (or the budget is spent) it releases its hold and claims once more after the
 * transactions writing at that moment have ended, so no row queued under the hold is left behind
 * (unless another sender has taken the outbox meanwhile: that one takes them; two senders at once
 * would each spend the provider's rate). Its requests are spaced for its share of the provider's
 * rate (SEND_MAIL_REQUESTS_PER_SECOND). docs/functions.md.
 */
import { json, refuseUnlessService } from '../_shared/http.ts';
import { MAX_BATCH, type OutgoingMail, sendMails } from '../_shared/mail.ts';
import { rpc } from '../_shared/rest.ts';

type OutboxRow = {
  id: number;
  to_email: string;
  subject: string;
  body_text: string;
  body_html?: string | null;
  batch_key: string;
  // Columns added later are ignored.
  [column: string]: unknown;
};

type Outcome =
  { mail_id: number; provider_id: string } | { mail_id: number; error: string; permanent: boolean };

/**
 * A call stops taking new batches after this long, and calls the next sender if mail is still
 * coming (edge_release_mail): it answers within pg_net's 10 s timeout unless the provider is slow.
 */
const BUDGET_MS = 7_000;
/** How long an empty outbox is watched before the hold is released. */
const LINGER_MS = 1_000;
const POLL_MS = 200;
/** The longest wait the provider's rate limit may ask of a sender before it resends. */
const THROTTLE_WAIT_MS = 2_000;
/** Claims after the release: what was queued under the hold, and no more. */
const LAST_ROUNDS = 5;
/**
 * The requests a second this sender may make (SEND_MAIL_REQUESTS_PER_SECOND): by default 1, half
 * of Resend's default 2, the other half left to the auth mails (send-email), which must not be
 * refused while bookings peak. The sender spaces its batches by as much, and the mail queued
 * meanwhile joins the next batch: at peak, up to 100 mails a request instead of 429s and waits.
 */
const SPACING_MS = 1000 / (Number(Deno.env.get('SEND_MAIL_REQUESTS_PER_SECOND')) || 1);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.serve(async (req) => {
  const refused = refuseUnlessService(req);
  if (refused) return refused;
  await req.body?.cancel();

  const started = Date.now();
  const counts = { sent: 0, retried: 0, failed: 0 };
  let lastRequest = 0;
  /** Until the provider takes another request. */
  const paced = () => sleep(Math.max(0, lastRequest + SPACING_MS - Date.now()));
  const request = (mails: OutgoingMail[], key: string) => {
    lastRequest = Date.now();
    return sendMails(mails, key);
  };
  /**
   * Sends a claimed batch in one request, then records it. When the provider's rate limit answers
   * (429, Resend: 2 requests a second by default), the sender waits as long as it asks
   * (THROTTLE_WAIT_MS at most) and sends the same batch again, within its time budget: a burst of
   * bookings then waits seconds for its mails, not a minute's backoff.
   */
  async function send(rows: OutboxRow[]): Promise<void> {
    const mails = rows.map((row) => ({
      to: row.to_email,
      subject: row.subject,
      text: row.body_text,
      ...(typeof row.body_html === 'string' ? { html: row.body_html } : {}),
    }));
    // A claim is one batch: its rows share the key.
    const key = `kiraa-mail-batch-${rows[0]!.batch_key}`;
    let result = await request(mails, key);
    while (
      !result.ok &&
      result.retryAfterMs !== undefined &&
      Date.now() - started + result.retryAfterMs < BUDGET_MS + THROTTLE_WAIT_MS
    ) {
      await sleep(Math.min(result.retryAfterMs, THROTTLE_WAIT_MS));
      result = await request(mails, key);
    }
    let outcomes: Outcome[];
    if (result.ok) {
      const sent = result.mails;
      outcomes = rows.map((row, i) => {
        const mail = sent[i]!;
        if ('id' in mail) {
          counts.sent++;
          return { mail_id: row.id, provider_id: mail.id };
        }
        console.error(`send-mail: mail ${row.id}: ${mail.error}`);
        counts.failed++;
        return { mail_id: row.id, error: mail.error, permanent: true };
      });
    } else {
      console.error(`send-mail: batch ${key} (${rows.length} mails): ${result.error}`);
      if (result.permanent) counts.failed += rows.length;
      else counts.retried += rows.length;
      const { error, permanent } = result;
      outcomes = rows.map((row) => ({ mail_id: row.id, error, permanent }));
    }
    await rpc('edge_settle_mails', { results: outcomes });
  }

  // Another running sender holds the outbox: it takes what this call was made for at its next
  // claim. (A sender that ended used to release the hold of one still running, and each statement
  // then called a sender that found nothing.)
  const sender = crypto.randomUUID();
  if (!(await rpc<boolean>('edge_hold_mail', { sender }))) return json({ ...counts, busy: true });

  let emptySince = 0;
  try {
    while (Date.now() - started < BUDGET_MS) {
      await paced();
      const rows = await rpc<OutboxRow[]>('edge_claim_mail', {
        batch: MAX_BATCH,
        hold: true,
        sender,
      });
      if (rows.length) {
        emptySince = 0;
        await send(rows);
        continue;
      }
      emptySince ||= Date.now();
      if (Date.now() - emptySince >= LINGER_MS) break;
      await sleep(POLL_MS);
    }
  } finally {
    await rpc('edge_release_mail', { sender });
  }
  for (let round = 0; round < LAST_ROUNDS; round++) {
    await paced();
    const rows = await rpc<OutboxRow[]>('edge_claim_mail', {
      batch: MAX_BATCH,
      after_writers: round === 0,
      // Nothing if another sender took the outbox meanwhile: it takes these rows.
      sender,
    });
    if (!rows.length) break;
    await send(rows);
  }
  return json(counts);
});
