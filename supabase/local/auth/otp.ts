/**
 * Sign in with a code (GoTrue's POST /otp, supabase-js `signInWithOtp`) and POST /resend.
 *
 * /otp mails a code of `otp_length` digits (and its link) to the address: a confirmed user gets a
 * sign-in code (GoTrue's magic link, on the recovery columns), an unconfirmed one the sign-up
 * confirmation again, and an unknown address a new account (profile `data` checked by the Before
 * User Created hook) with its confirmation code, unless `create_user` is false (422
 * `otp_disabled`). The code is redeemed with `verifyOtp({ email, token, type: 'email' })`: one
 * use, `otp_expiry`, wrong codes counted per address (recovery.ts). Mails share recovery's
 * limits: one per address per `max_frequency`, and the per-IP count.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';

import { EMAIL_APP_METADATA, databaseWrite, insertUser, newUserJson } from './accounts.ts';
import { mailConfirmation } from './signup.ts';
import { mailEmailChange } from './user-update.ts';
import { sendAuthMail } from './auth-mail.ts';
import { assertCaptcha } from './captcha.ts';
import { createFlowState, pkceLink, readPkce } from './pkce.ts';
import { callPostgresHook, hookMetadata } from './hooks.ts';
import {
  badRequest,
  objectField,
  readJsonObject,
  sendJson,
  stringField,
  tooManyRequests,
  unprocessable,
  versionHeaders,
} from './http.ts';
import { clearToken, codeHash, issueToken, resolveRedirect } from './recovery.ts';
import type { AuthService } from './service.ts';
import { assertAllowed, originOf } from './service.ts';
import { audit, authenticate } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById } from './users.ts';
import { normalizeEmail } from './validation.ts';

/** The per-address mail interval and the per-IP count, shared with /recover. */
function takeMailSlot(service: AuthService, ip: string, email: string): void {
  const { limits } = service;
  assertAllowed(limits.recoveriesPerIp.check(ip));
  const perEmail = limits.recoveryPerEmail.check(email);
  if (!perEmail.allowed) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${perEmail.retryAfterSeconds} seconds.`,
    );
  }
  limits.recoveriesPerIp.hit(ip);
  limits.recoveryPerEmail.hit(email);
}

/** POST /otp {email, create_user?, data?} (`?redirect_to=`): `{}` once the mail is sent. */
export async function handleOtp(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx } = service;
  const body = await readJsonObject(req);
  const pkce = readPkce(body);
  if (stringField(body, 'phone') !== '') {
    throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  }
  await assertCaptcha(service, req, body);
  const rawEmail = stringField(body, 'email');
  if (rawEmail === '') {
    throw badRequest('validation_failed', 'An email address or phone number is required');
  }
  const email = normalizeEmail(rawEmail);
  const createUser = body.create_user !== false;
  const data = objectField(body, 'data');
  if (data === 'invalid') {
    throw badRequest('bad_json', 'Could not parse request body as JSON: data must be an object');
  }
  const origin = originOf(req);
  const redirectTo = resolveRedirect(ctx.config, url.searchParams.get('redirect_to'), '/');

  let user = await findUserByEmail(ctx.db, email);
  if (!user) {
    if (!createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
    if (!ctx.config.auth.enableSignup || !ctx.config.auth.email.enableSignup) {
      throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    }
    assertAllowed(service.limits.signUpsPerIp.take(origin.ip));
    const hook = ctx.config.auth.hooks.beforeUserCreated;
    if (hook) {
      await callPostgresHook(ctx, hook, {
        metadata: hookMetadata(req, 'before-user-created'),
        user: newUserJson(email, data ?? {}),
      });
    }
    const userId = await databaseWrite(
      service,
      'Database error saving new user',
      unprocessable('user_already_exists', 'User already registered'),
      () =>
        ctx.db.tx(async (q) => {
          const id = await insertUser(q, {
            email,
            passwordHash: null,
            confirmed: false,
            userMetadata: data ?? {},
            appMetadata: EMAIL_APP_METADATA,
          });
          await audit(q, origin.ip, { id, email }, 'user_confirmation_requested', 'user', {
            provider: 'email',
          });
          return id;
        }),
    );
    user = await findUserById(ctx.db, userId);
    if (!user) throw new Error(`user ${userId} vanished after an OTP sign-up`);
  }
  if (!user.email_confirmed_at) {
    // GoTrue sends the confirmation (its code signs in too: `verifyOtp` type `email`).
    await mailConfirmation(service, req, user, redirectTo, pkce);
    sendJson(res, 200, {}, versionHeaders(req));
    return;
  }
  takeMailSlot(service, origin.ip, email);
  const confirmed = user;
  const token = await ctx.db.tx(async (q) => {
    const issued = await issueToken(q, ctx.config, confirmed, 'magiclink', redirectTo);
    await audit(q, origin.ip, confirmed, 'user_recovery_requested', 'user');
    if (!pkce) return issued;
    await createFlowState(q, confirmed.id, 'magiclink', pkce);
    return pkceLink(issued);
  });
  await sendAuthMail(service, req, confirmed, { action: 'magiclink', token, redirectTo });
  sendJson(res, 200, {}, versionHeaders(req));
}

/**
 * POST /resend {type: 'signup' | 'email_change', email} (GoTrue's Resend): `signup` mails the
 * confirmation again; `email_change` mails fresh codes for the pending change of the account whose
 * current address is `email` (to the new address, and to the current one with
 * double_confirm_changes), replacing the earlier ones, at most one per `max_frequency`
 * (`email_change_sent_at`, 429 `over_email_send_rate_limit`). `{}` for an unknown address, a
 * confirmed one (`signup`) or no pending change (`email_change`). Other types: 400.
 */
export async function handleResend(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx } = service;
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  const pkce = readPkce(body);
  if (type !== 'signup' && type !== 'email_change') {
    throw badRequest(
      'validation_failed',
      type === 'sms' || type === 'phone_change'
        ? `Resend of type ${type} is not supported by the local auth API`
        : 'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  await assertCaptcha(service, req, body);
  const rawEmail = stringField(body, 'email');
  if (rawEmail === '')
    throw badRequest('validation_failed', 'Missing email address or phone number');
  const email = normalizeEmail(rawEmail);
  assertAllowed(service.limits.recoveriesPerIp.take(originOf(req).ip));
  const user = await findUserByEmail(ctx.db, email);
  const redirectTo = resolveRedirect(ctx.config, url.searchParams.get('redirect_to'), '/');
  if (type === 'email_change') {
    if (user) await resendEmailChange(service, req, user, redirectTo);
  } else if (user && !user.email_confirmed_at) {
    await mailConfirmation(service, req, user, redirectTo, pkce);
  }
  sendJson(res, 200, {}, versionHeaders(req));
}

/** GoTrue's sendEmailChange for a pending change: new codes (the old ones stop working). */
async function resendEmailChange(
  service: AuthService,
  req: IncomingMessage,
  user: UserRow,
  redirectTo: string,
): Promise<void> {
  const { ctx } = service;
  const next = user.email_change ?? '';
  if (next === '') return;
  const interval = ctx.config.auth.email.maxFrequency;
  const change = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ wait: number }>(
      `select coalesce(ceil(extract(epoch from email_change_sent_at
                 + make_interval(secs => $2) - now())), 0)::int as wait
         from auth.users where id = $1 for update`,
      [user.id, interval],
    );
    const wait = Number(rows[0]?.wait ?? 0);
    if (wait > 0) {
      throw tooManyRequests(
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${wait} seconds.`,
      );
    }
    const double = ctx.config.auth.email.doubleConfirmChanges && (user.email ?? '') !== '';
    await q.query(`update auth.users set email_change_confirm_status = 0 where id = $1`, [user.id]);
    const current = double
      ? await issueToken(q, ctx.config, user, 'email_change_current', redirectTo)
      : null;
    if (!double) await clearToken(q, user.id, 'email_change_current');
    const issued = await issueToken(q, ctx.config, user, 'email_change_new', redirectTo, next);
    await audit(q, originOf(req).ip, user, 'user_confirmation_requested', 'user');
    return { current, next: issued };
  });
  await mailEmailChange(service, req, user, change, redirectTo);
}

/**
 * GET /reauthenticate: mails the signed-in user a code (no link) that a password change then
 * carries as `nonce` (supabase-js `reauthenticate()`, then `updateUser({ password, nonce })`).
 * One mail per address per `max_frequency`; the code lives `otp_expiry`.
 */
export async function handleReauthenticate(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { ctx, limits } = service;
  const { user } = await authenticate(req, ctx.db, ctx.config);
  const email = (user.email ?? '').toLowerCase();
  if (email === '') {
    throw badRequest(
      'validation_failed',
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (!user.email_confirmed_at) {
    throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  }
  const key = `reauthentication:${email}`;
  const wait = limits.recoveryPerEmail.check(key);
  if (!wait.allowed) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${wait.retryAfterSeconds} seconds.`,
    );
  }
  limits.recoveryPerEmail.hit(key);
  const origin = originOf(req);
  const token = await ctx.db.tx(async (q) => {
    const issued = await issueToken(q, ctx.config, user, 'reauthentication', ctx.config.siteUrl);
    await audit(q, origin.ip, user, 'user_reauthenticate_requested', 'user');
    return issued;
  });
  await sendAuthMail(service, req, user, {
    action: 'reauthentication',
    token,
    redirectTo: ctx.config.siteUrl,
  });
  sendJson(res, 200, {}, versionHeaders(req));
}

/**
 * A password change's `nonce`: the code of the last GET /reauthenticate, within `otp_expiry`;
 * used up once accepted. Wrong ones count per address like other codes (5 an hour). Runs inside
 * the caller's transaction.
 */
export async function assertReauthenticated(
  service: AuthService,
  q: Queryable,
  user: UserRow,
  nonce: string,
): Promise<void> {
  const email = (user.email ?? '').toLowerCase();
  assertAllowed(service.limits.otpFailuresPerEmail.check(email));
  const { rows } = await q.query<{ ok: boolean }>(
    `select coalesce(reauthentication_token = $2
              and reauthentication_sent_at > now() - make_interval(secs => $3), false) as ok
       from auth.users where id = $1 for update`,
    [user.id, codeHash(email, nonce.trim()), service.options.recoveryTokenTtlSeconds],
  );
  if (!rows[0]?.ok) {
    service.limits.otpFailuresPerEmail.hit(email);
    throw unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');
  }
  await clearToken(q, user.id, 'reauthentication');
}
