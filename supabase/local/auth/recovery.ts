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

import { verifyLink } from '../../functions/send-email/mails.ts';
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
import { assertCaptcha } from './captcha.ts';
import { createFlowState, issueAuthCode, PKCE_PREFIX, pkceLink, readPkce } from './pkce.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';
import type { SessionJson } from './sessions.ts';
import { audit, sha256Hex, startSession } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, userJson } from './users.ts';
import { normalizeEmail } from './validation.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * One of config.toml's `additional_redirect_urls`, as GoTrue compiles it (gobwas/glob with `.` and
 * `/` as separators): `*` matches within a host label or a path segment, `**` across them.
 */
export function redirectGlob(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      pattern += '.*';
      i++;
    } else if (char === '*') {
      pattern += '[^./]*';
    } else if (char === '?') {
      pattern += '[^./]';
    } else {
      pattern += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${pattern}$`);
}

/**
 * GoTrue's redirect allow list: a URL back to the site (same scheme, host and port as the site
 * URL; any port on a loopback host, as GoTrue allows per RFC 8252), or on one of the app origins
 * the stack serves, or one of config.toml's `additional_redirect_urls`.
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
  const globs = config.auth?.additionalRedirectUrls ?? [];
  if (globs.some((glob) => redirectGlob(glob).test(url.toString()))) return true;
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

export function codeHash(email: string, code: string): string {
  return sha256Hex(`${email}:${code}`);
}

/** The kinds of one-time token, with GoTrue's columns and names. */
export const TOKEN_KINDS = {
  recovery: { tokenType: 'recovery_token', column: 'recovery_token', sentAt: 'recovery_sent_at' },
  /** A sign-in code (POST /otp), on the recovery columns as GoTrue's magic link. */
  magiclink: { tokenType: 'recovery_token', column: 'recovery_token', sentAt: 'recovery_sent_at' },
  signup: {
    tokenType: 'confirmation_token',
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
  },
  /** A code proving the signed-in user still holds the mailbox (GET /reauthenticate). */
  reauthentication: {
    tokenType: 'reauthentication_token',
    column: 'reauthentication_token',
    sentAt: 'reauthentication_sent_at',
  },
  /** An e-mail change, confirmed at the current address (double_confirm_changes). */
  email_change_current: {
    tokenType: 'email_change_token_current',
    column: 'email_change_token_current',
    sentAt: 'email_change_sent_at',
  },
  /** An e-mail change, confirmed at the new address. */
  email_change_new: {
    tokenType: 'email_change_token_new',
    column: 'email_change_token_new',
    sentAt: 'email_change_sent_at',
  },
} as const;

/** The `type` of a link of this kind (GoTrue's verification types). */
function linkType(kind: TokenKind): string {
  return kind.startsWith('email_change') ? 'email_change' : kind;
}

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
  /** The address the code goes to (an e-mail change's new address), the user's by default. */
  address: string = user.email ?? '',
): Promise<OneTimeToken> {
  const { tokenType, column, sentAt } = TOKEN_KINDS[kind];
  const email = address.toLowerCase();
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
  // GoTrue's link (templatemailer's getPath), the one its mails and generate_link carry.
  const actionLink = verifyLink(config.apiUrl, linkToken, linkType(kind), redirectTo);
  return { linkToken, code, actionLink };
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
  const { ctx, limits } = service;
  const body = await readJsonObject(req);
  const pkce = readPkce(body);
  await assertCaptcha(service, req, body);
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
    if (pkce) await createFlowState(q, user.id, 'recovery', pkce);
    return { user, token: pkce ? pkceLink(token) : token };
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

/** A session, or (an e-mail change confirmed at one of its two addresses) GoTrue's message. */
type Redeemed = { session: SessionJson } | { message: string } | { code: string };

const SINGLE_CONFIRMATION =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** The kinds a verification type names: GoTrue's `email` code is a sign-up's. */
function kindsOf(type: string): TokenKind[] {
  if (type === 'recovery') return ['recovery'];
  if (type === 'signup') return ['signup'];
  // GoTrue's `email` code is a sign-in code or a sign-up's confirmation code.
  if (type === 'email') return ['signup', 'magiclink'];
  if (type === 'magiclink') return ['magiclink'];
  if (type === 'email_change') return ['email_change_current', 'email_change_new'];
  throw badRequest(
    'validation_failed',
    type === '' ? 'Verify requires a verification type' : 'Unsupported verification type',
  );
}

/**
 * Redeems a link token of one of `kinds`: the token must exist and be younger than the token
 * lifetime; it is consumed either way once found.
 */
async function redeemLinkToken(
  service: AuthService,
  req: IncomingMessage,
  linkToken: string,
  kinds: TokenKind[],
  /** A PKCE link (docs/auth.md, "PKCE"): an auth code instead of a session. */
  pkce = false,
): Promise<Redeemed> {
  const { ctx, options } = service;
  const origin = originOf(req);
  const outcome = await ctx.db.tx(async (q): Promise<Redeemed | AuthFailure> => {
    const { rows } = await q.query<{ user_id: string; token_type: string }>(
      `select user_id::text as user_id, token_type from auth.one_time_tokens
        where token_hash = $1 and token_type = any($2::text[])
        for update`,
      [sha256Hex(linkToken), kinds.map((k) => TOKEN_KINDS[k].tokenType)],
    );
    const kind = kinds.find((k) => TOKEN_KINDS[k].tokenType === rows[0]?.token_type);
    const user = rows[0] ? await findUserById(q, rows[0].user_id) : null;
    if (!user || !kind) return forbidden('otp_expired', LINK_INVALID);
    const ttl = options.recoveryTokenTtlSeconds;
    return redeem(q, service, user, kind, origin, ttl, LINK_INVALID, pkce);
  });
  if (outcome instanceof AuthFailure) throw outcome;
  return outcome;
}

async function redeem(
  q: Queryable,
  service: AuthService,
  user: UserRow,
  kind: TokenKind,
  origin: ReturnType<typeof originOf>,
  ttlSeconds: number,
  invalidMessage: string,
  pkce = false,
): Promise<Redeemed | AuthFailure> {
  const { rows } = await q.query<{ fresh: boolean }>(
    `select coalesce(${TOKEN_KINDS[kind].sentAt} > now() - make_interval(secs => $2), false) as fresh
       from auth.users where id = $1`,
    [user.id, ttlSeconds],
  );
  await clearToken(q, user.id, kind);
  if (!rows[0]?.fresh) return forbidden('otp_expired', invalidMessage);
  if (user.banned) return forbidden('user_banned', 'User is banned');
  if (kind === 'email_change_current' || kind === 'email_change_new') {
    const pending = await confirmEmailChange(q, service, user, kind);
    if (pending) return { message: SINGLE_CONFIRMATION };
  } else if (!user.email_confirmed_at) {
    // A recovery or a confirmation proves the address: the account becomes confirmed (GoTrue).
    await q.query(
      `update auth.users
          set email_confirmed_at = now(),
              raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
        where id = $1`,
      [user.id],
    );
    if (kind === 'signup') await audit(q, origin.ip, user, 'user_signedup', 'team');
  }
  if (pkce) {
    const code = await issueAuthCode(q, user.id, kind);
    return code instanceof AuthFailure ? code : { code };
  }
  await audit(q, origin.ip, user, 'login', 'account', { provider: 'email', method: kind });
  return { session: await startSession(q, service.ctx.config, user.id, 'otp', origin) };
}

/**
 * GoTrue's emailChangeVerify: with confirmation on and double_confirm_changes, the first of the two
 * links only records it (true: still pending); the second, or the only one otherwise, moves the
 * address and the e-mail identity to the new address.
 */
async function confirmEmailChange(
  q: Queryable,
  service: AuthService,
  user: UserRow,
  kind: TokenKind,
): Promise<boolean> {
  const { auth } = service.ctx.config;
  const { rows } = await q.query<{ status: number; email_change: string }>(
    `select email_change_confirm_status as status, coalesce(email_change, '') as email_change
       from auth.users where id = $1 for update`,
    [user.id],
  );
  const row = rows[0];
  if (!row || row.email_change === '') return false;
  if (auth.email.enableConfirmations && auth.email.doubleConfirmChanges && row.status === 0) {
    await q.query(`update auth.users set email_change_confirm_status = 1 where id = $1`, [user.id]);
    const other = kind === 'email_change_current' ? 'email_change_new' : 'email_change_current';
    const { rowCount } = await q.query(
      `select 1 from auth.one_time_tokens where user_id = $1 and token_type = $2`,
      [user.id, TOKEN_KINDS[other].tokenType],
    );
    if (rowCount > 0) return true;
  }
  await clearToken(q, user.id, 'email_change_current');
  await clearToken(q, user.id, 'email_change_new');
  await q.query(
    `update auth.users
        set email = email_change, email_change = '', email_change_confirm_status = 0,
            email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
      where id = $1`,
    [user.id],
  );
  await q.query(
    `update auth.identities
        set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
            updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [user.id, row.email_change],
  );
  await audit(q, null, user, 'user_modified', 'user');
  return false;
}

/** {email, token}: the code from the mail. Wrong codes count against the address. */
async function redeemCode(
  service: AuthService,
  req: IncomingMessage,
  rawEmail: string,
  code: string,
  kinds: TokenKind[],
): Promise<Redeemed> {
  const { ctx, options, limits } = service;
  let email: string;
  try {
    email = normalizeEmail(rawEmail);
  } catch {
    throw new AuthFailure(422, 'validation_failed', 'Invalid email format');
  }
  assertAllowed(limits.otpFailuresPerEmail.check(email));
  const origin = originOf(req);
  const outcome = await ctx.db.tx(async (q): Promise<Redeemed | AuthFailure> => {
    // An e-mail change's code was sent to the current or to the new address.
    const { rows: users } = await q.query<{ id: string }>(
      `select id::text as id from auth.users
        where deleted_at is null and (lower(email) = $1 or lower(email_change) = $1)
        order by created_at limit 1`,
      [email],
    );
    const user = users[0] ? await findUserById(q, users[0].id) : null;
    for (const kind of user ? kinds : []) {
      const { tokenType, column } = TOKEN_KINDS[kind];
      const { rows } = await q.query<{ matches: boolean }>(
        `select u.${column} = $2 and exists (
                  select 1 from auth.one_time_tokens t
                   where t.user_id = u.id and t.token_type = $3) as matches
           from auth.users u where u.id = $1 for update`,
        [user!.id, codeHash(email, code.trim()), tokenType],
      );
      if (rows[0]?.matches) {
        return redeem(
          q,
          service,
          user!,
          kind,
          origin,
          options.recoveryTokenTtlSeconds,
          CODE_INVALID,
        );
      }
    }
    return forbidden('otp_expired', CODE_INVALID);
  });
  if (outcome instanceof AuthFailure) {
    if (outcome.code === 'otp_expired') limits.otpFailuresPerEmail.hit(email);
    throw outcome;
  }
  return outcome;
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
  const kinds = kindsOf(type);
  assertAllowed(service.limits.verificationsPerIp.take(originOf(req).ip));
  let redeemed: Redeemed;
  if (tokenHash !== '') {
    redeemed = await redeemLinkToken(service, req, tokenHash, kinds);
  } else if (email !== '') {
    redeemed = await redeemCode(service, req, email, token, kinds);
  } else if (stringField(body, 'phone') !== '') {
    throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  } else {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on verify',
    );
  }
  const answer =
    'session' in redeemed
      ? redeemed.session
      : { msg: 'message' in redeemed ? redeemed.message : '', code: 200 };
  sendJson(res, 200, answer, versionHeaders(req));
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
    const kinds = kindsOf(type);
    assertAllowed(service.limits.verificationsPerIp.take(originOf(req).ip));
    const pkce = token.startsWith(PKCE_PREFIX);
    const plain = pkce ? token.slice(PKCE_PREFIX.length) : token;
    const redeemed = await redeemLinkToken(service, req, plain, kinds, pkce);
    if ('code' in redeemed) {
      target.searchParams.set('code', redeemed.code);
    } else if ('message' in redeemed) {
      target.hash = new URLSearchParams({ message: redeemed.message }).toString();
    } else {
      const { session } = redeemed;
      target.hash = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        type,
      }).toString();
    }
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
