/**
 * The mail transport: the provider's HTTP API (Resend's shape: POST {from, to, subject, text,
 * html} with a Bearer key), named by the MAIL_API_URL, MAIL_API_KEY and MAIL_FROM secrets. Locally
 * the stack's dev mailbox answers it.
 */
import { env } from './http.ts';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

export type SendResult =
  | { ok: true; id: string }
  /**
   * `permanent`: sending it again cannot work (a refused address); else retry later.
   * `retryAfterMs`: the provider's rate limit (429) and how long it asks to wait (`Retry-After`).
   */
  | { ok: false; permanent: boolean; error: string; retryAfterMs?: number };

/**
 * Sends one mail. `idempotencyKey` makes a retried send safe: the provider sends a key's mail
 * once, however many times it is asked.
 */
export async function sendMail(
  mail: OutgoingMail,
  idempotencyKey?: string,
  timeoutMs = 10_000,
): Promise<SendResult> {
  let res: Response;
  try {
    res = await fetch(env('MAIL_API_URL'), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env('MAIL_API_KEY')}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify({
        from: env('MAIL_FROM'),
        to: [mail.to],
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      }),
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
      return { ok: true, id: String((JSON.parse(text) as { id?: unknown }).id ?? '') };
    } catch {
      return { ok: true, id: '' };
    }
  }
  // A refused request (bad address, bad payload, a reused key) fails the same way every time;
  // a wrong key, a rate limit or an outage may pass later.
  const permanent = res.status === 400 || res.status === 409 || res.status === 422;
  const error = `mail provider answered ${res.status}: ${text.slice(0, 300)}`;
  if (res.status === 429) {
    // Seconds (Resend's form); a missing or unreadable value counts as one second.
    const seconds = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      permanent,
      error,
      retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
    };
  }
  return { ok: false, permanent, error };
}
