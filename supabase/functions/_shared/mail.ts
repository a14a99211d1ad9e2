/**
 * The mail transport: the provider's HTTP API (Resend's shape: POST {from, to, subject, text,
 * html} with a Bearer key, and `POST …/batch` with a list of them), named by the MAIL_API_URL
 * (the single-mail endpoint), MAIL_API_KEY and MAIL_FROM secrets. Locally the stack's dev mailbox
 * answers it.
 */
import { env } from './http.ts';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

/**
 * A request that did not send. `permanent`: sending it again cannot work (a refused address or
 * payload); else retry later. `retryAfterMs`: the provider's rate limit (429) and how long it
 * asks to wait (`Retry-After`).
 */
export type SendFailure = { ok: false; permanent: boolean; error: string; retryAfterMs?: number };

export type SendResult = { ok: true; id: string } | SendFailure;

/** Each mail of a batch, in order: sent (the provider's id) or refused by the provider. */
export type BatchResult =
  { ok: true; mails: Array<{ id: string } | { error: string }> } | SendFailure;

/** Resend's batch size. */
export const MAX_BATCH = 100;

/**
 * Sends one mail. `idempotencyKey` makes a retried send safe: the provider sends a key's mail
 * once, however many times it is asked.
 */
export async function sendMail(
  mail: OutgoingMail,
  idempotencyKey?: string,
  timeoutMs = 10_000,
): Promise<SendResult> {
  const answer = await post(env('MAIL_API_URL'), message(mail), idempotencyKey, timeoutMs);
  if (!answer.ok) return answer;
  return { ok: true, id: String((answer.body as { id?: unknown } | null)?.id ?? '') };
}

/**
 * Sends up to MAX_BATCH mails in one request (`POST <MAIL_API_URL>/batch`), under one
 * idempotency key: the same key must always come with the same mails. Permissive validation: a
 * mail the provider refuses (a bad address) is reported in its place, and the others are sent.
 */
export async function sendMails(
  mails: OutgoingMail[],
  idempotencyKey: string,
  timeoutMs = 10_000,
): Promise<BatchResult> {
  if (mails.length < 1 || mails.length > MAX_BATCH) {
    throw new RangeError(`a batch holds 1 to ${MAX_BATCH} mails, not ${mails.length}`);
  }
  const url = `${env('MAIL_API_URL').replace(/\/+$/, '')}/batch`;
  const answer = await post(url, mails.map(message), idempotencyKey, timeoutMs, {
    'x-batch-validation': 'permissive',
  });
  if (!answer.ok) return answer;
  const body = (answer.body ?? {}) as { data?: Array<{ id?: unknown }>; errors?: unknown };
  const refused = new Map<number, string>();
  for (const item of Array.isArray(body.errors) ? body.errors : []) {
    const { index, message: reason } = (item ?? {}) as { index?: unknown; message?: unknown };
    if (typeof index === 'number') refused.set(index, String(reason ?? 'refused'));
  }
  // `data` lists the sent mails' ids in order, the refused ones left out.
  const ids = (Array.isArray(body.data) ? body.data : []).map((item) => String(item?.id ?? ''));
  if (ids.length !== mails.length - refused.size) {
    return {
      ok: false,
      permanent: false,
      error: `mail provider answered ${ids.length} ids and ${refused.size} errors for ${mails.length} mails`,
    };
  }
  let next = 0;
  return {
    ok: true,
    mails: mails.map((_, index) => {
      const reason = refused.get(index);
      return reason === undefined
        ? { id: ids[next++]! }
        : { error: `mail provider refused it: ${reason}` };
    }),
  };
}

function message(mail: OutgoingMail) {
  return {
    from: env('MAIL_FROM'),
    to: [mail.to],
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
  };
}

/** POSTs to the provider: its JSON answer, or why it did not send. */
async function post(
  url: string,
  body: unknown,
  idempotencyKey: string | undefined,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<{ ok: true; body: unknown } | SendFailure> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env('MAIL_API_KEY')}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return {
      ok: false,
      permanent: false,
      error: `mail provider unreachable: ${(error as Error).message}`,
    };
  }
  const text = await res.text();
  if (res.ok) {
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      return { ok: true, body: null };
    }
  }
  const error = `mail provider answered ${res.status}: ${text.slice(0, 300)}`;
  if (res.status === 429) {
    // Seconds (Resend's form); a missing or unreadable value counts as one second.
    const seconds = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      permanent: false,
      error,
      retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
    };
  }
  // A refused request (bad address, bad payload, a key reused for another request) fails the
  // same way every time; a wrong key or an outage may pass later, and so may a key whose first
  // request is still being processed (409 concurrent_idempotent_requests: the same request again).
  const inFlight = res.status === 409 && text.includes('concurrent_idempotent_requests');
  const permanent = !inFlight && (res.status === 400 || res.status === 409 || res.status === 422);
  return { ok: false, permanent, error };
}
