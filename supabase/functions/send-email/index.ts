/**
 * send-email: Supabase Auth's Send Email hook (config.toml `[auth.hook.send_email]`). GoTrue posts
 * `{user, email_data}` signed with Standard Webhooks; this function checks the signature against
 * SEND_EMAIL_HOOK_SECRET, writes the mail in the reader's language (mails.ts) and sends it
 * through the mail provider. Answers as GoTrue expects: 200 `{}` when sent; a refusal as
 * `{error: {http_code, message}}`; 503 with Retry-After when the provider is down (GoTrue retries).
 * Deployed without JWT verification (`verify_jwt = false`): the signature is the check.
 */
import { env, json } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { verifyWebhook } from '../_shared/webhook.ts';
import { authMails, type EmailData, type HookUser } from './mails.ts';

/** GoTrue's hook error: it answers the user's request with this status and message. */
function hookError(httpCode: number, message: string, status = 200): Response {
  return json({ error: { http_code: httpCode, message } }, status);
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
    // One send per hook call and address: GoTrue's retries of this call are not sent twice.
    const key = `${req.headers.get('webhook-id')}:${mail.to}`;
    const result = await sendMail(mail, key);
    if (!result.ok) {
      console.error(`send-email: ${data.email_action_type} to ${mail.to}: ${result.error}`);
      if (result.permanent) return hookError(400, 'the mail provider refused this mail');
      return hookError(503, 'the mail provider is unavailable', 503);
    }
  }
  return json({});
});
