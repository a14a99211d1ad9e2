/**
 * send-email: Supabase Auth's Send Email hook (config.toml `[auth.hook.send_email]`). GoTrue posts
 * `{user, email_data}` signed with Standard Webhooks; this function checks the signature against
 * SEND_EMAIL_HOOK_SECRET, writes the mail in the reader's language (mails.ts) and sends it
 * through the mail provider. Answers as GoTrue expects: 200 `{}` when sent; a refusal as
 * `{error: {http_code, message}}`; 503 with Retry-After when the provider is down.
 * Deployed without JWT verification (`verify_jwt = false`): the signature is the check.
 *
 * GoTrue's HTTP hook dispatcher (supabase/auth internal/hooks/hookshttp/hookshttp.go, `Dispatcher`)
 * makes at most 3 attempts within one 5 s budget, signs each with a new `webhook-id`, and retries
 * a 429 or 503 only when it carries `Retry-After`. So a send is deduplicated on what stays the same
 * across attempts (the action, the tokens, the recipient; hashed, the provider never sees a token),
 * and one provider call gets PROVIDER_TIMEOUT_MS so that the attempts fit in the budget.
 */
import { env, json } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { verifyWebhook } from '../_shared/webhook.ts';
import { authMails, type EmailData, type HookUser } from './mails.ts';

/**
 * One provider call: two attempts (the first and GoTrue's retry after our 503) fit in its 5 s
 * budget, and a slow provider still has time to answer the first.
 */
const PROVIDER_TIMEOUT_MS = 2_400;

/** GoTrue's hook error: it answers the user's request with this status and message. */
function hookError(
  httpCode: number,
  message: string,
  status = 200,
  headers: HeadersInit = {},
): Response {
  return json({ error: { http_code: httpCode, message } }, status, headers);
}

/** The same for every attempt GoTrue makes of one mail (its webhook-id changes each time). */
async function sendKey(data: EmailData, to: string): Promise<string> {
  const stable = JSON.stringify([
    data.email_action_type ?? '',
    data.token ?? '',
    data.token_hash ?? '',
    data.token_new ?? '',
    data.token_hash_new ?? '',
    to.toLowerCase(),
  ]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(stable));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `auth-mail:${hex}`;
}

Deno.serve(async (req) => {
  if (req.method !== 'POST') return hookError(405, 'method not allowed', 405);
  const body = await req.text();
  const verdict = await verifyWebhook(env('SEND_EMAIL_HOOK_SECRET'), req.headers, body);
  if (!verdict.ok) return hookError(401, `invalid webhook signature: ${verdict.reason}`, 401);

  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return hookError(400, 'the payload is not JSON', 400);
  }
  // Signed, but not GoTrue's shape (`null`, a list, a string…): refused, never a crash.
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(payload)) return hookError(400, 'the payload is not an object', 400);
  const user = (isObject(payload.user) ? payload.user : {}) as HookUser;
  const data = (isObject(payload.email_data) ? payload.email_data : {}) as EmailData;
  const validFor = Number(Deno.env.get('OTP_EXPIRY_SECONDS') ?? 3600) || 3600;
  const mails = authMails(user, data, validFor);
  if (!mails) {
    return hookError(400, `unsupported email_action_type: ${data.email_action_type ?? '(none)'}`);
  }
  for (const mail of mails) {
    if (!mail.to) return hookError(400, 'the user has no email address');
    // One send per mail and address: GoTrue's retries (each with a new webhook-id) and a send
    // that reached the provider before its answer was lost are not sent twice.
    const result = await sendMail(mail, await sendKey(data, mail.to), PROVIDER_TIMEOUT_MS);
    if (!result.ok) {
      console.error(`send-email: ${data.email_action_type} to ${mail.to}: ${result.error}`);
      if (result.permanent) return hookError(400, 'the mail provider refused this mail');
      // Without Retry-After GoTrue gives up at once; with it, it tries again within its budget.
      return hookError(503, 'the mail provider is unavailable', 503, { 'retry-after': '1' });
    }
  }
  return json({});
});
