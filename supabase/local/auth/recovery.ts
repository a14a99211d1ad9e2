/**
 * One-time links and codes: password recovery (POST /recover) and sign-up confirmation (mailed by
 * POST /signup when config.toml's `enable_confirmations` is on). GET /verify (the link) and
 * POST /verify (`token_hash`, or `email` + `token`) turn either into a session, once, within
 * config.toml's `otp_expiry`. For a recovery the app then sets the new password with PUT /user.
 *
 * Secrets at rest are hashes only: the link token (32 random bytes) as SHA-256 in
 * `auth.one_time_tokens.token_hash`, the code (`otp_length` digits) as SHA-256 of email + code in
 * `auth.users.recovery_token` / `confirmation_token`. Using the link or the code consumes both.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable, StackConfig } from '../context.ts';
import {
  AuthFailure,
  badRequest,
  forbidden,
  internalError,
  notFound,
  readJsonObject,
  sendJson,
  sendRedirect,
  stringField,
  tooManyRequests,
  versionHeaders,
} from './http.ts';
import { sendAuthMail } from './auth-mail.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';
import type { SessionJson } from './sessions.ts';
import { audit, sha256Hex, startSession } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, userJson } from './users.ts';
import { normalizeEmail } from './validation.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * GoTrue's redirect allow list: a URL back to the site (same scheme, host and port as the site
 * URL; any port on a loopback host, as GoTrue allows per RFC 8252), or on one of the app origins
 * the stack serves (`additional_redirect_urls`).
 */
function isAllowedRedirect(config: StackConfig, url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  try {
    const site = new URL(config.siteUrl);
    if (
      site.protocol === url.protocol &&
      site.hostname === url.hostname &&
      (site.port === url.port || LOOPBACK_HOSTS.has(url.hostname))
    ) {
      return true;
    }
  } catch {
    // A malformed site URL allows nothing by itself.
  }
  return config.appOrigins.some((origin) => {
    try {
      return new URL(origin).origin === url.origin;
    } catch {
      return false;
    }
  });
}

/**
 * The page a recovery link lands on: `redirect_to` when the allow list accepts it, otherwise (as
 * GoTrue falls back to the site URL, silently) the app's /reset-password.
 */
export function resolveRedirect(
  config: StackConfig,
  requested: string | null,
  /** Where to land without an allowed `redirect_to` (GoTrue: the site URL; a recovery: its page). */
  fallbackPath = '/reset-password',
): string {
  if (requested) {
    try {
      const url = new URL(requested);
      if (isAllowedRedirect(config, url)) return url.toString();
    } catch {
      // Not an absolute URL: fall back.
    }
  }
  return `${config.siteUrl.replace(/\/+$/, '')}${fallbackPath}`;
}

/** A code of `length` digits (config.toml's otp_length; GoTrue's crypto.GenerateOtp). */
export function newOtp(length: number): string {
  let code = '';
  while (code.length < length) code += String(randomInt(0, 10));
  return code;
}

function codeHash(email: string, code: string): string {
  return sha256Hex(`${email}:${code}`);
}

/** The kinds of one-time token, with GoTrue's columns and names. */
export const TOKEN_KINDS = {
  recovery: { tokenType: 'recovery_token', column: 'recovery_token', sentAt: 'recovery_sent_at' },
  signup: {
    tokenType: 'confirmation_token',
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
  },
} as const;

export type TokenKind = keyof typeof TOKEN_KINDS;

export type OneTimeToken = { linkToken: string; code: string; actionLink: string };

/**
 * Creates a fresh link and code of one kind for a user (replacing any previous one) and records
 * when it was sent. Runs inside the caller's transaction.
 */
export async function issueToken(
  q: Queryable,
  config: StackConfig,
  user: UserRow,
  kind: TokenKind,
  redirectTo: string,
): Promise<OneTimeToken> {
  const { tokenType, column, sentAt } = TOKEN_KINDS[kind];
  const email = (user.email ?? '').toLowerCase();
  const linkToken = randomBytes(32).toString('base64url');
  const code = newOtp(config.auth.email.otpLength);
  await q.query(
    `insert into auth.one_time_tokens
       (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $5, $3, $4, timezone('utc', now()), timezone('utc', now()))
     on conflict (user_id, token_type) do update
       set id = excluded.id, token_hash = excluded.token_hash, relates_to = excluded.relates_to,
           created_at = excluded.created_at, updated_at = excluded.updated_at`,
    [randomUUID(), user.id, sha256Hex(linkToken), email, tokenType],
  );
  await q.query(
    `update auth.users set ${column} = $2, ${sentAt} = now(), updated_at = now() where id = $1`,
    [user.id, codeHash(email, code)],
  );
  const actionLink = new URL(`${config.apiUrl.replace(/\/+$/, '')}/auth/v1/verify`);
  actionLink.searchParams.set('token', linkToken);
  actionLink.searchParams.set('type', kind);
  actionLink.searchParams.set('redirect_to', redirectTo);
  return { linkToken, code, actionLink: actionLink.toString() };
}

/** Invalidates the user's outstanding link and code of one kind. */
export async function clearToken(q: Queryable, userId: string, kind: TokenKind): Promise<void> {
  const { tokenType, column } = TOKEN_KINDS[kind];
  await q.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [
    userId,
    tokenType,
  ]);
  await q.query(`update auth.users set ${column} = '' where id = $1`, [userId]);
}

/** Invalidates the user's outstanding recovery link and code. */
export function clearRecovery(q: Queryable, userId: string): Promise<void> {
  return clearToken(q, userId, 'recovery');
}

/** POST /recover {email}: mails a recovery link and code; always `{}` for unknown addresses. */
export async function handleRecover(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx, options, limits } = service;
  const body = await readJsonObject(req);
  if (stringField(body, 'code_challenge') !== '') {
    throw badRequest(
      'validation_failed',
      "PKCE is not supported by the local auth API: create the client with flowType 'implicit'",
    );
  }
  const email = normalizeEmail(stringField(body, 'email'));
  const origin = originOf(req);
  assertAllowed(limits.recoveriesPerIp.check(origin.ip));
  const perEmail = limits.recoveryPerEmail.check(email);
  if (!perEmail.allowed) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${perEmail.retryAfterSeconds} seconds.`,
    );
  }
  limits.recoveriesPerIp.hit(origin.ip);
  limits.recoveryPerEmail.hit(email);

  const redirectTo = resolveRedirect(ctx.config, url.searchParams.get('redirect_to'));
  const prepared = await ctx.db.tx(async (q) => {
    const user = await findUserByEmail(q, email);
    if (!user) return null;
    const token = await issueToken(q, ctx.config, user, 'recovery', redirectTo);
    await audit(q, origin.ip, user, 'user_recovery_requested', 'user');
    return { user, token };
  });
  if (prepared) {
    await sendAuthMail(service, req, prepared.user, {
      action: 'recovery',
      token: prepared.token,
      redirectTo,
    });
  }
  sendJson(res, 200, {}, versionHeaders(req));
}

const LINK_INVALID = 'Email link is invalid or has expired';
const CODE_INVALID = 'Token has expired or is invalid';

type Redeemed = { session: SessionJson };

/** What a verification type names: GoTrue's `email` code is a sign-up's (or a magic link's). */
function kindOf(type: string): TokenKind {
  if (type === 'recovery') return 'recovery';
  if (type === 'signup' || type === 'email') return 'signup';
  throw badRequest(
    'validation_failed',
    type === '' ? 'Verify requires a verification type' : 'Unsupported verification type',
  );
}

/**
 * Turns a link token into a session: the token must exist, be of the kind the link names and be
 * younger than the token lifetime; it is consumed either way once found.
 */
async function redeemLinkToken(
  service: AuthService,
  req: IncomingMessage,
  linkToken: string,
  kind: TokenKind,
) {
  const { ctx, options } = service;
  const origin = originOf(req);
  const outcome = await ctx.db.tx(async (q): Promise<Redeemed | AuthFailure> => {
    const { rows } = await q.query<{ user_id: string }>(
      `select user_id::text as user_id from auth.one_time_tokens
        where token_hash = $1 and token_type = $2
        for update`,
      [sha256Hex(linkToken), TOKEN_KINDS[kind].tokenType],
    );
    const userId = rows[0]?.user_id;
    const user = userId ? await findUserById(q, userId) : null;
    if (!user) return forbidden('otp_expired', LINK_INVALID);
    return redeem(q, service, user, kind, origin, options.recoveryTokenTtlSeconds, LINK_INVALID);
  });
  if (outcome instanceof AuthFailure) throw outcome;
  return outcome.session;
}

async function redeem(
  q: Queryable,
  service: AuthService,
  user: UserRow,
  kind: TokenKind,
  origin: ReturnType<typeof originOf>,
  ttlSeconds: number,
  invalidMessage: string,
): Promise<Redeemed | AuthFailure> {
  const { rows } = await q.query<{ fresh: boolean }>(
    `select coalesce(${TOKEN_KINDS[kind].sentAt} > now() - make_interval(secs => $2), false) as fresh
       from auth.users where id = $1`,
    [user.id, ttlSeconds],
  );
  await clearToken(q, user.id, kind);
  if (!rows[0]?.fresh) return forbidden('otp_expired', invalidMessage);
  if (user.banned) return forbidden('user_banned', 'User is banned');
  // A recovery or a confirmation proves the address: the account becomes confirmed (GoTrue).
  if (!user.email_confirmed_at) {
    await q.query(
      `update auth.users
          set email_confirmed_at = now(),
              raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
        where id = $1`,
      [user.id],
    );
    if (kind === 'signup') await audit(q, origin.ip, user, 'user_signedup', 'team');
  }
  await audit(q, origin.ip, user, 'login', 'account', { provider: 'email', method: kind });
  return { session: await startSession(q, service.ctx.config, user.id, 'otp', origin) };
}

/** {email, token}: the code from the mail. Wrong codes count against the address. */
async function redeemCode(
  service: AuthService,
  req: IncomingMessage,
  rawEmail: string,
  code: string,
  kind: TokenKind,
): Promise<SessionJson> {
  const { ctx, options, limits } = service;
  let email: string;
  try {
    email = normalizeEmail(rawEmail);
  } catch {
    throw new AuthFailure(422, 'validation_failed', 'Invalid email format');
  }
  assertAllowed(limits.otpFailuresPerEmail.check(email));
  const origin = originOf(req);
  const { tokenType, column } = TOKEN_KINDS[kind];
  const outcome = await ctx.db.tx(async (q): Promise<Redeemed | AuthFailure> => {
    const user = await findUserByEmail(q, email);
    const { rows } = user
      ? await q.query<{ matches: boolean }>(
          `select u.${column} = $2 and exists (
                    select 1 from auth.one_time_tokens t
                     where t.user_id = u.id and t.token_type = $3) as matches
             from auth.users u where u.id = $1 for update`,
          [user.id, codeHash(email, code.trim()), tokenType],
        )
      : { rows: [] };
    if (!user || !rows[0]?.matches) return forbidden('otp_expired', CODE_INVALID);
    return redeem(q, service, user, kind, origin, options.recoveryTokenTtlSeconds, CODE_INVALID);
  });
  if (outcome instanceof AuthFailure) {
    if (outcome.code === 'otp_expired') limits.otpFailuresPerEmail.hit(email);
    throw outcome;
  }
  return outcome.session;
}

/**
 * POST /verify: {type, token_hash} or {type, email, token} → session; `type` is `recovery`,
 * `signup` or `email` (a sign-up's code).
 */
export async function handleVerifyPost(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  const tokenHash = stringField(body, 'token_hash');
  const token = stringField(body, 'token');
  const email = stringField(body, 'email');
  if (tokenHash === '' && token === '') {
    throw badRequest('validation_failed', 'Verify requires a token or a token hash');
  }
  const kind = kindOf(type);
  assertAllowed(service.limits.verificationsPerIp.take(originOf(req).ip));
  let session: SessionJson;
  if (tokenHash !== '') {
    session = await redeemLinkToken(service, req, tokenHash, kind);
  } else if (email !== '') {
    session = await redeemCode(service, req, email, token, kind);
  } else if (stringField(body, 'phone') !== '') {
    throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  } else {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on verify',
    );
  }
  sendJson(res, 200, session, versionHeaders(req));
}

/** OAuth's names for the statuses GoTrue puts in `error=` of an error redirect. */
const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  429: 'access_denied',
  500: 'server_error',
};

/**
 * GET /verify?token=…&type=recovery|signup&redirect_to=… (the link in the mail): 303 to
 * `redirect_to` with the session in the fragment (`#access_token=…&type=recovery`), or with
 * `#error=…&error_code=…&error_description=…` when the link is used, expired or unknown.
 */
export async function handleVerifyGet(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const redirectTo = resolveRedirect(
    service.ctx.config,
    url.searchParams.get('redirect_to'),
    url.searchParams.get('type') === 'recovery' ? '/reset-password' : '/',
  );
  const target = new URL(redirectTo);
  try {
    const token = (url.searchParams.get('token') ?? '').trim();
    const type = (url.searchParams.get('type') ?? '').trim();
    if (token === '') throw badRequest('validation_failed', 'Verify requires a token');
    const kind = kindOf(type);
    assertAllowed(service.limits.verificationsPerIp.take(originOf(req).ip));
    const session = await redeemLinkToken(service, req, token, kind);
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: session.token_type,
      type,
    });
    target.hash = fragment.toString();
  } catch (caught) {
    let failure: AuthFailure;
    if (caught instanceof AuthFailure) {
      failure = caught;
    } else {
      service.ctx.log(`auth: GET /verify failed: ${(caught as Error).stack ?? String(caught)}`);
      failure = internalError('Database error updating user');
    }
    const fragment = new URLSearchParams();
    const oauthError = OAUTH_ERRORS[failure.status];
    if (oauthError) fragment.set('error', oauthError);
    fragment.set('error_code', failure.code);
    fragment.set('error_description', failure.message);
    target.hash = fragment.toString();
  }
  sendRedirect(res, target.toString());
}

/**
 * POST /admin/generate_link {type: 'recovery', email}: the link and code, without a mail (for
 * staff tools and tests). GoTrue's answer: the user plus action_link, email_otp, hashed_token,
 * verification_type, redirect_to.
 */
export async function handleGenerateLink(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx } = service;
  const body = await readJsonObject(req);
  const type = stringField(body, 'type');
  if (type !== 'recovery') {
    throw badRequest(
      'validation_failed',
      `Invalid email action link type requested: ${type === '' ? '(none)' : type}`,
    );
  }
  const email = normalizeEmail(stringField(body, 'email'));
  const requested = stringField(body, 'redirect_to') || url.searchParams.get('redirect_to');
  const redirectTo = resolveRedirect(ctx.config, requested);
  const result = await ctx.db.tx(async (q) => {
    const user = await findUserByEmail(q, email);
    if (!user) return null;
    const token = await issueToken(q, ctx.config, user, 'recovery', redirectTo);
    await audit(q, originOf(req).ip, null, 'user_recovery_requested', 'user', {
      user_id: user.id,
    });
    const fresh = await findUserById(q, user.id);
    return { user: await userJson(q, fresh ?? user), token };
  });
  if (!result) throw notFound('user_not_found', 'User with this email not found');
  sendJson(
    res,
    200,
    {
      ...result.user,
      action_link: result.token.actionLink,
      email_otp: result.token.code,
      hashed_token: result.token.linkToken,
      verification_type: 'recovery',
      redirect_to: redirectTo,
    },
    versionHeaders(req),
  );
}
