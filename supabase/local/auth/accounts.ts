/**
 * The account endpoints supabase-js calls: POST /token (password and refresh_token grants),
 * POST /logout, GET /user, and the user-row helpers that POST /signup (signup.ts), PUT /user
 * (user-update.ts), /otp and the admin API share.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import {
  AuthFailure,
  badRequest,
  internalError,
  readJsonObject,
  sendJson,
  sendNoContent,
  stringField,
  versionHeaders,
} from './http.ts';
import { callPostgresHook, hookMetadata } from './hooks.ts';
import { hashPassword, needsRehash, spendComparisonTime, verifyPassword } from './passwords.ts';

import { refuseIdToken } from './external.ts';

import { assertCaptcha } from './captcha.ts';
import { pkceGrant } from './pkce.ts';

import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';
import type { LogoutScope } from './sessions.ts';
import { audit, authenticate, endSessions, refreshSession, startSession } from './sessions.ts';

import { findUserByEmail, INSTANCE_ID, userJson } from './users.ts';

/** The SQLSTATE of a database error (pg and PGlite both put it in `code`). */
function sqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** Whether a database error is the unique index on `auth.users.email` (two requests racing). */
function isDuplicateEmail(error: unknown): boolean {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return sqlState(error) === '23505' && constraint === 'users_email_partial_key';
}

/**
 * Runs a write and turns a database failure into GoTrue's answer: a duplicate email becomes
 * `email_exists` / `user_already_exists`, anything else (a trigger raising, a CHECK failing)
 * becomes 500 `unexpected_failure` with GoTrue's message, the cause going to the log only.
 */
export async function databaseWrite<T>(
  service: AuthService,
  failureMessage: string,
  /** The answer when the write collides with another user's email (none for writes that cannot). */
  duplicate: AuthFailure | null,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AuthFailure) throw error;
    if (duplicate && isDuplicateEmail(error)) throw duplicate;
    const detail = error instanceof Error ? error.message : String(error);
    const state = sqlState(error);
    service.ctx.log(`auth: ${failureMessage}: ${state ? `[${state}] ` : ''}${detail}`);
    throw internalError(failureMessage);
  }
}

/** Splits metadata updates into keys to set and keys to remove (GoTrue: null removes). */
function metadataPatch(updates: Record<string, unknown>): { set: string; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  return { set: JSON.stringify(set), remove };
}

/** Merges into `raw_user_meta_data` or `raw_app_meta_data` in SQL, so concurrent updates add up. */
export async function patchMetadata(
  q: Queryable,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  updates: Record<string, unknown>,
): Promise<void> {
  const patch = metadataPatch(updates);
  await q.query(
    `update auth.users
        set ${column} = (coalesce(${column}, '{}'::jsonb) || $2::jsonb) - $3::text[],
            updated_at = now()
      where id = $1`,
    [userId, patch.set, patch.remove],
  );
}

export type NewUser = {
  email: string;
  passwordHash: string | null;
  confirmed: boolean;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
};

/**
 * Inserts a user and its `email` identity as GoTrue does (empty strings, not NULLs, in the token
 * columns, so a real GoTrue can read the rows too). Database triggers (the profile) run here.
 */
export async function insertUser(q: Queryable, user: NewUser): Promise<string> {
  const id = randomUUID();
  const userMetadata = user.confirmed
    ? { ...user.userMetadata, email_verified: true }
    : user.userMetadata;
  await q.query(
    `insert into auth.users
       (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        confirmation_token, recovery_token, email_change_token_new, email_change,
        email_change_token_current, phone_change, phone_change_token, reauthentication_token,
        raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at,
        is_sso_user, is_anonymous)
     values ($1, $2, 'authenticated', 'authenticated', $3, $4,
             case when $5::boolean then now() end,
             '', '', '', '', '', '', '', '',
             $6::jsonb, $7::jsonb, false, now(), now(), false, false)`,
    [
      INSTANCE_ID,
      id,
      user.email,
      user.passwordHash ?? '',
      user.confirmed,
      JSON.stringify(user.appMetadata),
      JSON.stringify(userMetadata),
    ],
  );
  await q.query(
    `insert into auth.identities
       (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3::jsonb, 'email', now(), now(), now())`,
    [
      id,
      id,
      JSON.stringify({ sub: id, email: user.email, email_verified: false, phone_verified: false }),
    ],
  );
  return id;
}

export const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] };

const INVALID_LOGIN = 'Invalid login credentials';

/** The user GoTrue hands the Before User Created hook: not saved yet, so no id in the database. */
export function newUserJson(email: string, userMetadata: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    app_metadata: EMAIL_APP_METADATA,
    user_metadata: userMetadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

async function passwordGrant(
  service: AuthService,
  req: IncomingMessage,
  body: Record<string, unknown>,
) {
  const { ctx, options, limits } = service;
  const rawEmail = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = typeof body.password === 'string' ? body.password : '';
  if (rawEmail !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (rawEmail === '' && phone !== '') {
    throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  }
  if (rawEmail === '') throw badRequest('validation_failed', 'missing email or phone');
  const email = rawEmail.toLowerCase();
  const origin = originOf(req);
  // Per address, as GoTrue's Token handler: every password grant takes from the token limiter
  // (config.toml `token_refresh`), the one refreshes take from. Per account: the hook below.
  assertAllowed(limits.tokenGrantsPerIp.take(origin.ip));

  const user = await findUserByEmail(ctx.db, email);
  if (!user || !user.encrypted_password) {
    await spendComparisonTime(password, options.bcryptCost);
    throw badRequest('invalid_credentials', INVALID_LOGIN);
  }
  if (user.banned) throw badRequest('user_banned', 'User is banned');
  const valid = await verifyPassword(password, user.encrypted_password);
  const hook = ctx.config.auth.hooks.passwordVerificationAttempt;
  if (hook) {
    const decision = await callPostgresHook<{
      decision?: string;
      message?: string;
      should_logout_user?: boolean;
    }>(ctx, hook, {
      metadata: hookMetadata(req, 'password-verification'),
      user_id: user.id,
      valid,
    });
    if (decision.decision === 'reject') {
      if (decision.should_logout_user) {
        await ctx.db.tx((q) => endSessions(q, user.id, 'global', null));
      }
      throw badRequest(
        'invalid_credentials',
        decision.message || 'Further password verification attempts will be rejected.',
      );
    }
  }
  if (!valid) throw badRequest('invalid_credentials', INVALID_LOGIN);
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');

  const upgraded =
    user.encrypted_password && needsRehash(user.encrypted_password, options.bcryptCost)
      ? await hashPassword(password, options.bcryptCost)
      : null;
  return ctx.db.tx(async (q) => {
    if (upgraded) {
      await q.query(`update auth.users set encrypted_password = $2 where id = $1`, [
        user.id,
        upgraded,
      ]);
    }
    await audit(q, origin.ip, user, 'login', 'account', { provider: 'email' });
    return startSession(q, ctx.config, user.id, 'password', origin);
  });
}

/** POST /token?grant_type=password|refresh_token. */
export async function handleToken(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const body = await readJsonObject(req);
  const grantType = url.searchParams.get('grant_type') ?? '';
  let session;
  switch (grantType) {
    case 'password':
      await assertCaptcha(service, req, body);
      session = await passwordGrant(service, req, body);
      break;
    case 'refresh_token':
      assertAllowed(service.limits.tokenGrantsPerIp.take(originOf(req).ip));
      session = await refreshSession(
        service.ctx,
        service.options,
        stringField(body, 'refresh_token'),
      );
      break;
    case 'id_token':
      // The body is read above; the provider is named in it.
      return refuseIdToken(body);
    case 'pkce':
      assertAllowed(service.limits.tokenGrantsPerIp.take(originOf(req).ip));
      session = await pkceGrant(service, req, body);
      break;
    default:
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
  sendJson(res, 200, session, versionHeaders(req));
}

const LOGOUT_SCOPES: readonly LogoutScope[] = ['global', 'local', 'others'];

/** POST /logout?scope=global|local|others → 204. */
export async function handleLogout(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const requested = url.searchParams.get('scope') || 'global';
  if (!LOGOUT_SCOPES.includes(requested as LogoutScope)) {
    throw badRequest('validation_failed', `Unsupported logout scope "${requested}"`);
  }
  const { ctx } = service;
  const { user, sessionId } = await authenticate(req, ctx.db, ctx.config);
  await ctx.db.tx(async (q) => {
    await endSessions(q, user.id, requested as LogoutScope, sessionId);
    await audit(q, originOf(req).ip, user, 'logout', 'account');
  });
  sendNoContent(res);
}

/** GET /user. */
export async function handleGetUser(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { ctx } = service;
  const { user } = await authenticate(req, ctx.db, ctx.config);
  sendJson(res, 200, await userJson(ctx.db, user), versionHeaders(req));
}
