/**
 * The account endpoints supabase-js calls: POST /signup, POST /token (password and refresh_token
 * grants), POST /logout, GET /user and PUT /user.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import {
  AuthFailure,
  badRequest,
  internalError,
  objectField,
  readJsonObject,
  sendJson,
  sendNoContent,
  stringField,
  tooManyRequests,
  unprocessable,
  versionHeaders,
} from './http.ts';
import { callPostgresHook, hookMetadata } from './hooks.ts';
import { hashPassword, needsRehash, spendComparisonTime, verifyPassword } from './passwords.ts';
import { sendAuthMail } from './auth-mail.ts';
import { refuseIdToken } from './external.ts';
import { assertReauthenticated } from './otp.ts';
import { assertCaptcha } from './captcha.ts';
import { createFlowState, pkceGrant, pkceLink, readPkce, type Pkce } from './pkce.ts';
import { clearRecovery, issueToken, resolveRedirect, type OneTimeToken } from './recovery.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';
import type { LogoutScope } from './sessions.ts';
import { audit, authenticate, endSessions, refreshSession, startSession } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, INSTANCE_ID, userJson } from './users.ts';
import { assertStrongPassword, normalizeEmail, passwordPolicy } from './validation.ts';

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

const INVALID_LOGIN = 'Invalid login credentials';

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

/** GoTrue's answer when an address belongs to another user (PUT /user, admin API). */
export const emailTaken = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

async function assertEmailFree(q: Queryable, email: string, userId: string): Promise<void> {
  const owner = await findUserByEmail(q, email);
  if (owner && owner.id !== userId) throw emailTaken();
}

/** Changes a user's email and its identity at once (the admin API, as GoTrue's). */
export async function changeEmail(q: Queryable, user: UserRow, email: string): Promise<void> {
  await assertEmailFree(q, email, user.id);
  await q.query(
    `update auth.users set email = $2, email_change = '', updated_at = now() where id = $1`,
    [user.id, email],
  );
  await q.query(
    `update auth.identities
        set identity_data = jsonb_set(identity_data, '{email}', to_jsonb($2::text)),
            updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [user.id, email],
  );
}

/**
 * PUT /user {data?, password?, email?}: metadata is merged (null removes a key); a new password
 * must meet the policy and differ from the current one, and ends the user's other sessions.
 */
/** The profile fields a metadata change may touch (the sign-up hook checks the same ones). */
const PROFILE_FIELDS = ['name', 'phone', 'age', 'address', 'locale'];

/**
 * A metadata change answers 422 `<field>: <reason>` for a profile field the sign-up hook would
 * refuse (internal.profile_field_problem), as sign-up does. Stricter than hosted on purpose: there
 * GoTrue stores the metadata and the profile keeps its value (docs/auth.md, "Local and hosted").
 */
async function assertProfileFields(
  ctx: AuthService['ctx'],
  data: Record<string, unknown>,
): Promise<void> {
  const fields = PROFILE_FIELDS.filter((field) => field in data && data[field] !== null);
  for (const field of fields) {
    const { rows } = await ctx.db.query<{ problem: string | null }>(
      'select internal.profile_field_problem($1::jsonb, $2) as problem',
      [JSON.stringify(data), field],
    );
    const problem = rows[0]?.problem;
    if (problem) throw unprocessable('validation_failed', `${field}: ${problem}`);
  }
}

export async function handleUpdateUser(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx, options } = service;
  const { user, sessionId } = await authenticate(req, ctx.db, ctx.config);
  const body = await readJsonObject(req);
  const data = objectField(body, 'data');
  if (data === 'invalid') {
    throw badRequest('bad_json', 'Could not parse request body as JSON: data must be an object');
  }
  if (data) await assertProfileFields(ctx, data);
  const phone = stringField(body, 'phone');
  if (phone !== '' && phone !== (user.phone ?? '')) {
    throw badRequest('phone_provider_disabled', 'Phone changes are disabled');
  }
  const rawEmail = stringField(body, 'email');
  const email = rawEmail === '' ? null : normalizeEmail(rawEmail);
  const password = typeof body.password === 'string' ? body.password : null;
  const nonce = stringField(body, 'nonce');
  let passwordHash: string | null = null;
  if (password !== null) {
    assertStrongPassword(password, passwordPolicy(ctx.config.auth));
    if (await verifyPassword(password, user.encrypted_password)) {
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      );
    }
    passwordHash = await hashPassword(password, options.bcryptCost);
  }
  const origin = originOf(req);
  const redirectTo = resolveRedirect(ctx.config, url.searchParams.get('redirect_to'), '/');
  const double = ctx.config.auth.email.doubleConfirmChanges && (user.email ?? '') !== '';
  let change: { current: OneTimeToken | null; next: OneTimeToken } | null = null;
  const updated = await databaseWrite(service, 'Database error updating user', emailTaken(), () =>
    ctx.db.tx(async (q) => {
      // A password change may carry the code of GET /reauthenticate (supabase-js `nonce`).
      if (passwordHash && nonce !== '') await assertReauthenticated(service, q, user, nonce);
      if (data) await patchMetadata(q, user.id, 'raw_user_meta_data', data);
      if (email && email !== user.email) {
        // GoTrue: a permanent user's new address is confirmed by mail (at both addresses with
        // double_confirm_changes), never applied at once.
        await assertEmailFree(q, email, user.id);
        await q.query(
          `update auth.users set email_change = $2, email_change_confirm_status = 0,
                  updated_at = now() where id = $1`,
          [user.id, email],
        );
        change = {
          current: double
            ? await issueToken(q, ctx.config, user, 'email_change_current', redirectTo)
            : null,
          next: await issueToken(q, ctx.config, user, 'email_change_new', redirectTo, email),
        };
        await audit(q, origin.ip, user, 'user_confirmation_requested', 'user');
      }
      if (passwordHash) {
        await q.query(
          `update auth.users set encrypted_password = $2, updated_at = now() where id = $1`,
          [user.id, passwordHash],
        );
        await clearRecovery(q, user.id);
        await endSessions(q, user.id, 'others', sessionId);
        await audit(q, origin.ip, user, 'user_updated_password', 'user');
      }
      if (data) await audit(q, origin.ip, user, 'user_modified', 'user');
      const fresh = await findUserById(q, user.id);
      if (!fresh) throw new Error(`user ${user.id} vanished while being updated`);
      return { fresh, json: await userJson(q, fresh) };
    }),
  );
  if (change) await mailEmailChange(service, req, updated.fresh, change, redirectTo);
  sendJson(res, 200, updated.json, versionHeaders(req));
}

/**
 * The e-mail change mails: one call carries both tokens (GoTrue's email_data), and the mails go to
 * the new address and, with double confirmation, to the current one.
 */
async function mailEmailChange(
  service: AuthService,
  req: IncomingMessage,
  user: UserRow,
  change: { current: OneTimeToken | null; next: OneTimeToken },
  redirectTo: string,
): Promise<void> {
  await sendAuthMail(service, req, user, {
    action: 'email_change',
    token: change.next,
    current: change.current,
    redirectTo,
  });
}
