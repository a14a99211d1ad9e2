/**
 * Sends an auth mail as GoTrue does: through the Send Email hook when config.toml enables it (an
 * HTTP POST signed with Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * `v1,<base64 HMAC-SHA256>` with the `v1,whsec_…` secret; GoTrue then sends nothing itself), else
 * itself: locally, the localized mail of mail.ts into the dev mailbox.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import type { HookSettings } from '../settings.ts';
import { AuthFailure, internalError } from './http.ts';
import { authMail, mailLocale, type AuthMailAction } from './mail.ts';
import type { AuthService } from './service.ts';
import type { UserRow } from './users.ts';
import { userJson } from './users.ts';

export type AuthMailRequest = {
  action: AuthMailAction;
  token: { linkToken: string; code: string; actionLink: string };
  /** An e-mail change's token for the new address, when one hook call carries both. */
  tokenNew?: { linkToken: string; code: string } | null;
  redirectTo: string;
};

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

export async function sendAuthMail(
  service: AuthService,
  req: IncomingMessage,
  user: UserRow,
  mail: AuthMailRequest,
): Promise<void> {
  const { ctx } = service;
  const hook = ctx.config.auth.hooks.sendEmail;
  if (hook) {
    await callHttpHook(hook, {
      metadata: {
        uuid: randomUUID(),
        time: new Date().toISOString(),
        name: 'send-email',
        ip_address: req.socket.remoteAddress ?? '',
      },
      user: await userJson(ctx.db, user),
      email_data: {
        token: mail.token.code,
        token_hash: mail.token.linkToken,
        redirect_to: mail.redirectTo,
        email_action_type: mail.action,
        site_url: ctx.config.apiUrl.replace(/\/+$/, ''),
        token_new: mail.tokenNew?.code ?? '',
        token_hash_new: mail.tokenNew?.linkToken ?? '',
      },
    });
    return;
  }
  const name = user.raw_user_meta_data?.name;
  const message = authMail(mail.action, {
    to: user.email ?? '',
    name: typeof name === 'string' && name.trim() !== '' ? name.trim() : null,
    link: mail.token.actionLink,
    code: mail.token.code,
    validForSeconds: ctx.config.auth.email.otpExpiry,
    locale: mailLocale(mail.redirectTo, user.raw_user_meta_data, req.headers['accept-language']),
  });
  try {
    await ctx.mailer.send(message);
  } catch (error) {
    ctx.log(
      `auth: could not send the ${mail.action} mail to ${user.email}: ${(error as Error).message}`,
    );
    throw internalError(
      mail.action === 'recovery'
        ? 'Error sending recovery email'
        : 'Error sending confirmation email',
    );
  }
}
