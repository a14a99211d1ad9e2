/**
 * POST /signup (docs/auth.md): the Before User Created hook, the user, and either a session or the
 * confirmation mail (`enable_confirmations`). Split from accounts.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

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
import { callPostgresHook, hookMetadata } from './hooks.ts';
import { hashPassword } from './passwords.ts';
import { sendAuthMail } from './auth-mail.ts';

import { assertCaptcha } from './captcha.ts';
import { createFlowState, pkceLink, readPkce, type Pkce } from './pkce.ts';
import { issueToken, resolveRedirect } from './recovery.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';

import { audit, startSession } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, userJson } from './users.ts';
import { assertStrongPassword, normalizeEmail, passwordPolicy } from './validation.ts';

import { databaseWrite, EMAIL_APP_METADATA, insertUser, newUserJson } from './accounts.ts';

/** POST /signup: creates the user (confirmed at once, as `supabase start` does) and a session. */
export async function handleSignup(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx, options, limits } = service;
  const body = await readJsonObject(req);
  const pkce = readPkce(body);
  const origin = originOf(req);
  assertAllowed(limits.signUpsPerIp.take(origin.ip));
  await assertCaptcha(service, req, body);
  if (!ctx.config.auth.enableSignup || !ctx.config.auth.email.enableSignup) {
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  }

  const rawEmail = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = typeof body.password === 'string' ? body.password : '';
  if (rawEmail !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    );
  }
  if (rawEmail === '' && phone !== '') {
    throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  }
  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
  assertStrongPassword(password, passwordPolicy(ctx.config.auth));
  const email = normalizeEmail(rawEmail);
  const data = objectField(body, 'data');
  if (data === 'invalid') {
    throw badRequest('bad_json', 'Could not parse request body as JSON: data must be an object');
  }

  const confirm = ctx.config.auth.email.enableConfirmations;
  const redirectTo = resolveRedirect(ctx.config, url.searchParams.get('redirect_to'), '/');
  const alreadyRegistered = unprocessable('user_already_exists', 'User already registered');
  // The password is hashed before the address is looked up: a taken address costs the same time
  // as a new one, so the answer's delay does not tell whether an account exists.
  const passwordHash = await hashPassword(password, options.bcryptCost);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) {
    if (!confirm) throw alreadyRegistered;
    // With confirmations on, GoTrue tells nobody whether the address has an account: a confirmed
    // one gets a look-alike user, an unconfirmed one its confirmation mail again.
    if (existing.email_confirmed_at) {
      sendJson(res, 200, lookAlikeUser(email, data ?? {}), versionHeaders(req));
      return;
    }
    await mailConfirmation(service, req, existing, redirectTo, pkce);
    sendJson(res, 200, await userJson(ctx.db, existing), versionHeaders(req));
    return;
  }
  const hook = ctx.config.auth.hooks.beforeUserCreated;
  if (hook) {
    // GoTrue asks the hook with the user it is about to create, before any write.
    await callPostgresHook(ctx, hook, {
      metadata: hookMetadata(req, 'before-user-created'),
      user: newUserJson(email, data ?? {}),
    });
  }

  const created = await databaseWrite(
    service,
    'Database error saving new user',
    alreadyRegistered,
    () =>
      ctx.db.tx(async (q) => {
        const userId = await insertUser(q, {
          email,
          passwordHash,
          confirmed: !confirm,
          userMetadata: data ?? {},
          appMetadata: EMAIL_APP_METADATA,
        });
        const actor = { id: userId, email };
        if (confirm) {
          await audit(q, origin.ip, actor, 'user_confirmation_requested', 'user', {
            provider: 'email',
          });
          return { userId, session: null };
        }
        await audit(q, origin.ip, actor, 'user_signedup', 'team', { provider: 'email' });
        await audit(q, origin.ip, actor, 'login', 'account', { provider: 'email' });
        return { userId, session: await startSession(q, ctx.config, userId, 'password', origin) };
      }),
  );
  if (created.session) {
    sendJson(res, 200, created.session, versionHeaders(req));
    return;
  }
  const user = await findUserById(ctx.db, created.userId);
  if (!user) throw new Error(`user ${created.userId} vanished after sign-up`);
  await mailConfirmation(service, req, user, redirectTo, pkce);
  const fresh = (await findUserById(ctx.db, user.id)) ?? user;
  sendJson(res, 200, await userJson(ctx.db, fresh), versionHeaders(req));
}

/** Mails the sign-up confirmation link and code (at most one per `max_frequency`). */
export async function mailConfirmation(
  service: AuthService,
  req: IncomingMessage,
  user: UserRow,
  redirectTo: string,
  pkce: Pkce | null = null,
): Promise<void> {
  const { ctx, limits } = service;
  const email = (user.email ?? '').toLowerCase();
  const wait = limits.confirmationPerEmail.check(email);
  if (!wait.allowed) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${wait.retryAfterSeconds} seconds.`,
    );
  }
  limits.confirmationPerEmail.hit(email);
  const token = await ctx.db.tx(async (q) => {
    const issued = await issueToken(q, ctx.config, user, 'signup', redirectTo);
    if (!pkce) return issued;
    await createFlowState(q, user.id, 'email/signup', pkce);
    return pkceLink(issued);
  });
  await sendAuthMail(service, req, user, { action: 'signup', token, redirectTo });
}

/** GoTrue's sanitizeUser: what a sign-up of a taken address answers, so it reveals nothing. */
function lookAlikeUser(email: string, userMetadata: Record<string, unknown>) {
  const user = newUserJson(email, userMetadata);
  return { ...user, confirmation_sent_at: user.created_at };
}
