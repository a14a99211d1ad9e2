/**
 * Sends an auth mail as GoTrue does: it builds the Send Email hook's payload (`user`,
 * `email_data` as GoTrue fills them) and, when config.toml enables the hook, POSTs it signed with
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature` `v1,<base64
 * HMAC-SHA256>` with the `v1,whsec_…` secret; GoTrue then sends nothing itself). Otherwise the
 * very code of the `send-email` Edge Function (supabase/functions/send-email/mails.ts, what a
 * hosted project sends) renders that payload, and the mails go to the dev mailbox: one copy of
 * the texts, the same language rules (no Accept-Language: a hook cannot see it).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { authMails, type EmailData, type HookUser } from '../../functions/send-email/mails.ts';
import type { HookSettings } from '../settings.ts';
import { AuthFailure, internalError } from './http.ts';
import type { OneTimeToken } from './recovery.ts';
import type { AuthService } from './service.ts';
import type { UserRow } from './users.ts';
import { userJson } from './users.ts';

export type AuthMailRequest = {
  action: 'signup' | 'recovery' | 'magiclink' | 'reauthentication' | 'email_change' | 'invite';
  /** The link and code; for an e-mail change, the new address's. */
  token: OneTimeToken;
  /** An e-mail change's link and code for the current address (double_confirm_changes). */
  current?: OneTimeToken | null;
  redirectTo: string;
};

/**
 * GoTrue's `email_data` (internal/api/mail.go, sendEmail). For an e-mail change confirmed at both
 * addresses, `token_hash` is the new address's link and `token_new` its code, while
 * `token_hash_new` is the current address's link and `token` its code (GoTrue's documented
 * swap); confirmed at the new address only, `token`/`token_hash` are the new address's.
 */
export function emailData(
  apiUrl: string,
  mail: AuthMailRequest,
): Required<EmailData> & { old_phone: string; provider: string; factor_type: string } {
  const { token, current } = mail;
  return {
    token: current ? current.code : token.code,
    token_hash: token.linkToken,
    redirect_to: mail.redirectTo,
    email_action_type: mail.action,
    site_url: apiUrl.replace(/\/+$/, ''),
    token_new: current ? token.code : '',
    token_hash_new: current ? current.linkToken : '',
    // GoTrue sends its notification fields too, empty for these mails.
    old_email: '',
    old_phone: '',
    provider: '',
    factor_type: '',
  };
}

/** The Standard Webhooks signatures of a payload, one per `v1,whsec_…` secret (`|`-separated). */
export function webhookSignatures(
  secrets: string,
  id: string,
  timestamp: number,
  payload: string,
): string[] {
  return secrets.split('|').map((secret) => {
    if (!secret.startsWith('v1,whsec_')) {
      throw new Error('A Send Email hook secret looks like v1,whsec_<base64>.');
    }
    const key = Buffer.from(secret.slice('v1,whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64');
    return `v1,${mac}`;
  });
}

/** GoTrue's HTTP hook call (hookshttp): one POST, its status decides. */
export async function callHttpHook(hook: HookSettings, input: unknown): Promise<void> {
  const payload = JSON.stringify(input);
  const id = randomUUID();
  const timestamp = Math.floor(Date.now() / 1000);
  let response: Response;
  try {
    response = await fetch(hook.uri, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignatures(hook.secrets ?? '', id, timestamp, payload).join(
          ', ',
        ),
      },
      body: payload,
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw new AuthFailure(
      422,
      'hook_timeout_after_retry',
      'Failed to reach hook after maximum retries',
    );
  }
  const text = await response.text();
  if (response.status === 204) return;
  if (response.status === 200 || response.status === 202) {
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new AuthFailure(
        400,
        'hook_payload_invalid_content_type',
        type
          ? `Invalid JSON response. Received content-type: ${type}`
          : 'Invalid Content-Type: Missing Content-Type header',
      );
    }
    const error = (JSON.parse(text || '{}') as { error?: { http_code?: number; message?: string } })
      .error;
    if (error?.message) throw new AuthFailure(error.http_code || 500, '', error.message);
    return;
  }
  if (response.status === 400) throw internalError('Invalid payload sent to hook');
  if (response.status === 401) throw internalError('Hook requires authorization token');
  if (response.status === 429 || response.status === 503) {
    throw internalError('Service currently unavailable due to hook');
  }
  throw internalError(`Unexpected status code returned from hook: ${response.status}`);
}

/** What GoTrue answers when an auth mail cannot be sent. */
const SEND_ERRORS: Record<AuthMailRequest['action'], string> = {
  signup: 'Error sending confirmation email',
  recovery: 'Error sending recovery email',
  magiclink: 'Error sending magic link email',
  reauthentication: 'Error sending reauthentication email',
  email_change: 'Error sending email change email',
  invite: 'Error sending invite email',
};

export async function sendAuthMail(
  service: AuthService,
  req: IncomingMessage,
  user: UserRow,
  mail: AuthMailRequest,
): Promise<void> {
  const { ctx } = service;
  const hookUser = await userJson(ctx.db, user);
  const data = emailData(ctx.config.apiUrl, mail);
  const hook = ctx.config.auth.hooks.sendEmail;
  if (hook) {
    await callHttpHook(hook, {
      metadata: {
        uuid: randomUUID(),
        time: new Date().toISOString(),
        name: 'send-email',
        ip_address: req.socket.remoteAddress ?? '',
      },
      user: hookUser,
      email_data: data,
    });
    return;
  }
  const mails = authMails(hookUser as HookUser, data, ctx.config.auth.email.otpExpiry) ?? [];
  try {
    if (mails.length === 0 || mails.some((m) => m.to === '')) {
      throw new Error('nothing to send (no address)');
    }
    for (const message of mails) await ctx.mailer.send(message);
  } catch (error) {
    ctx.log(
      `auth: could not send the ${mail.action} mail to ${user.email}: ${(error as Error).message}`,
    );
    throw internalError(SEND_ERRORS[mail.action]);
  }
}
