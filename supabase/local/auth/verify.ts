/**
 * GET /verify (the mail's link) and POST /verify (`token_hash`, or `email` + `token`): a one-time
 * link or code of recovery.ts, a sign-up confirmation, a sign-in code or an e-mail change turned
 * into a session, once (docs/auth.md). Split from recovery.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import {
  AuthFailure,
  badRequest,
  forbidden,
  internalError,
  readJsonObject,
  sendJson,
  sendRedirect,
  stringField,
  versionHeaders,
} from './http.ts';

import { issueAuthCode, PKCE_PREFIX } from './pkce.ts';
import { assertAllowed, originOf } from './service.ts';
import type { AuthService } from './service.ts';
import type { SessionJson } from './sessions.ts';
import { audit, sha256Hex, startSession } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserById } from './users.ts';
import { normalizeEmail } from './validation.ts';

import { clearToken, codeHash, resolveRedirect, TOKEN_KINDS, type TokenKind } from './recovery.ts';

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
  if (type === 'invite') return ['invite'];
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
