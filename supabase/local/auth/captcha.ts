/**
 * GoTrue's CAPTCHA check (internal/api/middleware.go verifyCaptcha), when config.toml's
 * [auth.captcha] is on: sign-up, password sign-in and recovery need
 * `gotrue_meta_security.captcha_token` (supabase-js's `captchaToken`), which is checked with the
 * provider's siteverify endpoint (form `secret`, `response`, `remoteip`). The service-role key
 * skips it, as an admin token does on GoTrue.
 */
import type { IncomingMessage } from 'node:http';

import { AuthFailure, badRequest, bearerToken, clientIp, internalError } from './http.ts';
import type { AuthService } from './service.ts';

export async function assertCaptcha(
  service: AuthService,
  req: IncomingMessage,
  body: Record<string, unknown>,
): Promise<void> {
  const { captcha } = service.ctx.config.auth;
  if (!captcha.enabled) return;
  if (bearerToken(req) === service.ctx.config.serviceRoleKey) return;
  const security = body.gotrue_meta_security as { captcha_token?: unknown } | undefined;
  const token = typeof security?.captcha_token === 'string' ? security.captcha_token.trim() : '';
  if (token === '') {
    throw badRequest(
      'captcha_failed',
      'captcha protection: request disallowed (no captcha_token found)',
    );
  }
  let result: { success?: boolean; 'error-codes'?: string[] };
  try {
    const res = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret: captcha.secret ?? '',
        response: token,
        remoteip: clientIp(req),
      }),
      signal: AbortSignal.timeout(10_000),
    });
    result = (await res.json()) as typeof result;
  } catch (error) {
    service.ctx.log(`auth: CAPTCHA verification failed: ${(error as Error).message}`);
    throw internalError('captcha verification process failed');
  }
  if (!result.success) {
    throw new AuthFailure(
      400,
      'captcha_failed',
      `captcha protection: request disallowed (${(result['error-codes'] ?? []).join(', ')})`,
    );
  }
}
