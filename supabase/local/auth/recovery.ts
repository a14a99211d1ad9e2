/**
 * One-time links and codes: password recovery (POST /recover) and sign-up confirmation (mailed by
 * POST /signup when config.toml's `enable_confirmations` is on). GET /verify (the link) and
 * POST /verify (`token_hash`, or `email` + `token`, verify.ts) turn either into a session, once,
 * within config.toml's `otp_expiry`. For a recovery the app then sets the new password with PUT /user.
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
  badRequest,
  notFound,
  readJsonObject,
  sendJson,
  stringField,
  tooManyRequests,
  versionHeaders,
} from './http.ts';
import { sendAuthMail } from './auth-mail.ts';
import { assertCaptcha } from './captcha.ts';
import { createFlowState, pkceLink, readPkce } from './pkce.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';

import { audit, sha256Hex } from './sessions.ts';
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
  /** A staff invitation (POST /invite), on the confirmation columns as GoTrue's. */
  invite: {
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
