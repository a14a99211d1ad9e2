/**
 * Sessions, refresh tokens and access tokens, on Supabase's tables (`auth.sessions`,
 * `auth.refresh_tokens`, `auth.mfa_amr_claims`).
 *
 * - An access token is an ES256 JWT (the current signing key, supabase/local/auth/access-token.ts)
 *   with GoTrue's claims; it is accepted by /user, /logout … only while its session row exists.
 * - A refresh token is 32 random bytes; only its SHA-256 is stored (`token`, and `parent` for the
 *   token it replaced), so a database dump cannot be replayed. Each use revokes it and issues its
 *   child. A revoked token is accepted again, as by GoTrue, within the reuse interval (concurrent
 *   tabs) or while the token that replaced it was never used (the answer was lost: GoTrue answers
 *   with that same successor, which only a stored plain token allows; here a new one replaces
 *   it). Any other reuse means a copy exists: the session's tokens are revoked and the answer is
 *   `refresh_token_already_used` (see refreshSession).
 * - Ending a session deletes its row and, by the foreign key, its refresh tokens (GoTrue).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

import type { JwtClaims, Queryable, ServiceContext, StackConfig } from '../context.ts';
import { JwtError, verifyJwt } from '../jwt.ts';
import { accessTokenClaims, aalOf, amrOf, signAccessToken, type Aal } from './access-token.ts';
import { AuthFailure, badRequest, bearerToken, forbidden, unauthorized } from './http.ts';
import type { AuthOptions } from './options.ts';
import type { UserJson, UserRow } from './users.ts';
import { findUserById, INSTANCE_ID, isUuid, USER_COLUMNS, userJson } from './users.ts';

export type AuthMethod = 'password' | 'otp';
export type { Aal };

export type SessionJson = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
};

export type Origin = { ip: string; userAgent: string | null };

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

async function sessionJson(
  q: Queryable,
  config: StackConfig,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<SessionJson> {
  const claims = accessTokenClaims(
    config,
    user,
    sessionId,
    await amrOf(q, sessionId),
    await aalOf(q, sessionId),
  );
  return {
    access_token: signAccessToken(claims, config),
    token_type: 'bearer',
    expires_in: config.jwtExpiry,
    expires_at: claims.exp as number,
    refresh_token: refreshToken,
    user: await userJson(q, user),
  };
}

async function insertRefreshToken(
  q: Queryable,
  userId: string,
  sessionId: string,
  parentHash: string | null,
): Promise<string> {
  const { token, hash } = newRefreshToken();
  await q.query(
    `insert into auth.refresh_tokens
       (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ($1, $2, $3, false, now(), now(), $4, $5)`,
    [INSTANCE_ID, hash, userId, parentHash, sessionId],
  );
  return token;
}

/**
 * Starts a session for a user who just proved who they are: the session row, how they did it,
 * their first refresh token, `last_sign_in_at`. Runs inside the caller's transaction.
 */
export async function startSession(
  q: Queryable,
  config: StackConfig,
  userId: string,
  method: AuthMethod,
  origin: Origin,
): Promise<SessionJson> {
  const sessionId = randomUUID();
  await q.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', timezone('utc', now()), $3, $4::inet)`,
    [sessionId, userId, origin.userAgent, isIP(origin.ip) ? origin.ip : null],
  );
  await q.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  );
  await q.query(`update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`, [
    userId,
  ]);
  await q.query(
    `update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1`,
    [userId],
  );
  const refreshToken = await insertRefreshToken(q, userId, sessionId, null);
  const user = await findUserById(q, userId);
  if (!user) throw new Error(`user ${userId} vanished while signing in`);
  return sessionJson(q, config, user, sessionId, refreshToken);
}

/**
 * New tokens for a session whose assurance level just changed (MFA verify): its earlier refresh
 * tokens are deleted, so one issued at aal1 can never mint an aal2 token (GoTrue bumps its
 * counter for the same reason).
 */
export async function reissueSession(
  q: Queryable,
  config: StackConfig,
  user: UserRow,
  sessionId: string,
): Promise<SessionJson> {
  await q.query(`delete from auth.refresh_tokens where session_id = $1`, [sessionId]);
  const refreshToken = await insertRefreshToken(q, user.id, sessionId, null);
  return sessionJson(q, config, user, sessionId, refreshToken);
}

type TokenRow = {
  token: string;
  revoked: boolean;
  user_id: string | null;
  session_id: string | null;
  session_alive: boolean;
  not_after_passed: boolean;
  age_seconds: number;
};

/** GoTrue retries a refresh whose session another request holds for this long, then answers 409. */
const REFRESH_RETRY_LOOP_MS = 5000;

/** The session row is locked by a concurrent refresh (GoTrue's FOR UPDATE SKIP LOCKED). */
const LOCKED = Symbol('locked');

/**
 * The refresh_token grant, as GoTrue's tokens.Service.RefreshTokenGrant: the token's session is
 * locked with FOR UPDATE SKIP LOCKED; while another refresh holds it the grant retries every
 * 10–30 ms for 5 s, then answers 409 `conflict`. A revoked token is accepted when its successor
 * was never used (the answer was lost) or within the reuse interval; any other reuse revokes the
 * session's tokens (their `updated_at` set to now, so the newest token still works for the reuse
 * interval, as in GoTrue) and answers `refresh_token_already_used`.
 */
export async function refreshSession(
  ctx: ServiceContext,
  options: AuthOptions,
  refreshToken: string,
): Promise<SessionJson> {
  if (refreshToken === '') throw badRequest('validation_failed', 'refresh_token required');
  const hash = sha256Hex(refreshToken);
  const deadline = Date.now() + REFRESH_RETRY_LOOP_MS;
  for (;;) {
    const outcome = await ctx.db.tx((q) => refreshOnce(q, ctx, options, hash));
    if (outcome instanceof AuthFailure) throw outcome;
    if (outcome !== LOCKED) return outcome;
    if (Date.now() > deadline) {
      throw new AuthFailure(
        409,
        'conflict',
        'Too many concurrent token refresh requests on the same session or refresh token',
      );
    }
    await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
  }
}

async function refreshOnce(
  q: Queryable,
  ctx: ServiceContext,
  options: AuthOptions,
  hash: string,
): Promise<SessionJson | AuthFailure | typeof LOCKED> {
  const { rows } = await q.query<TokenRow>(
    `select t.token, t.revoked, t.user_id, t.session_id::text as session_id,
            s.id is not null as session_alive,
            coalesce(s.not_after < now(), false) as not_after_passed,
            extract(epoch from (now() - t.updated_at))::float8 as age_seconds
       from auth.refresh_tokens t
       left join auth.sessions s on s.id = t.session_id
      where t.token = $1`,
    [hash],
  );
  const token = rows[0];
  if (!token) {
    return badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  const user = token.user_id ? await findUserById(q, token.user_id) : null;
  if (!user) {
    return badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  if (user.banned) return badRequest('user_banned', 'Invalid Refresh Token: User Banned');
  if (!token.session_id || !token.session_alive) {
    return badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
  }
  if (token.not_after_passed) {
    return badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
  }
  const locked = await q.query(`select 1 from auth.sessions where id = $1 for update skip locked`, [
    token.session_id,
  ]);
  if (locked.rowCount === 0) return LOCKED;

  if (token.revoked) {
    // Within the reuse interval (two tabs refreshing at once) a revoked token is accepted, as by
    // GoTrue, which hands out the family's live token again. Only hashes are kept here, so that
    // token is replaced instead: every live token of the session is revoked and the session
    // keeps exactly one. Past the interval, only when the answer to its last use was lost: its
    // successor was never used.
    const withinReuse = token.age_seconds <= options.refreshTokenReuseIntervalSeconds;
    const { rowCount: replaced } = withinReuse
      ? await q.query(
          `update auth.refresh_tokens set revoked = true, updated_at = now()
            where session_id = $1 and revoked = false`,
          [token.session_id],
        )
      : await q.query(
          `update auth.refresh_tokens set revoked = true, updated_at = now()
            where parent = $1 and session_id = $2 and revoked = false`,
          [hash, token.session_id],
        );
    if (!withinReuse && replaced === 0) {
      // Used twice: someone else holds a copy. GoTrue revokes the token family.
      await q.query(
        `update auth.refresh_tokens set revoked = true, updated_at = now()
          where session_id = $1 and revoked = false`,
        [token.session_id],
      );
      await audit(q, null, user, 'token_revoked', 'token', { reason: 'refresh_token_reuse' });
      ctx.log(`auth: refresh token reused; the tokens of session ${token.session_id} are revoked`);
      return badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
  } else {
    await q.query(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1`,
      [hash],
    );
  }
  const child = await insertRefreshToken(q, user.id, token.session_id, hash);
  await q.query(
    `update auth.sessions set refreshed_at = timezone('utc', now()), updated_at = now()
      where id = $1`,
    [token.session_id],
  );
  await audit(q, null, user, 'token_refreshed', 'token');
  return sessionJson(q, ctx.config, user, token.session_id, child);
}

export type LogoutScope = 'global' | 'local' | 'others';

/**
 * Ends sessions of a user: all of them, this one, or all but this one. As GoTrue's Logout, the
 * session rows are deleted and their refresh tokens with them (foreign key on delete cascade), so
 * a later refresh answers `refresh_token_not_found`.
 */
export async function endSessions(
  q: Queryable,
  userId: string,
  scope: LogoutScope,
  sessionId: string | null,
): Promise<void> {
  const target =
    scope === 'local'
      ? { where: 'id = $2', params: [sessionId] }
      : scope === 'others'
        ? { where: 'id <> $2', params: [sessionId] }
        : { where: 'true', params: [] };
  await q.query(`delete from auth.sessions where user_id = $1 and ${target.where}`, [
    userId,
    ...target.params,
  ]);
}

export type Authenticated = { user: UserRow; sessionId: string };

function kidOf(token: string): string {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof header?.kid === 'string' ? header.kid : '<nil>';
  } catch {
    return '<nil>';
  }
}

function verifyBearer(req: IncomingMessage, config: StackConfig): JwtClaims {
  const token = bearerToken(req);
  if (!token) throw unauthorized('no_authorization', 'This endpoint requires a Bearer token');
  try {
    return verifyJwt<JwtClaims>(token, config.signingKeys);
  } catch (error) {
    const reason =
      error instanceof JwtError
        ? error.reason === 'expired'
          ? 'token has invalid claims: token is expired'
          : error.reason === 'bad_signature'
            ? 'token signature is invalid: signature is invalid'
            : error.reason === 'unknown_key'
              ? `unrecognized JWT kid ${kidOf(token)} for algorithm ES256`
              : 'token is malformed'
        : 'token is malformed';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

/**
 * The signed-in user behind the request's bearer token: the JWT must verify and be unexpired,
 * its user must exist and its session must still be alive.
 */
export async function authenticate(
  req: IncomingMessage,
  db: Queryable,
  config: StackConfig,
): Promise<Authenticated> {
  const claims = verifyBearer(req, config);
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  if (sub === '') throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : '';
  if (sessionId !== '' && !isUuid(sessionId)) {
    throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
  }
  const { rows } = await db.query<UserRow & { session_alive: boolean }>(
    `select ${USER_COLUMNS},
            exists (select 1 from auth.sessions s
                     where s.id = $2 and s.user_id = u.id
                       and (s.not_after is null or s.not_after > now())) as session_alive
       from auth.users u
      where u.id = $1`,
    [sub, sessionId === '' ? null : sessionId],
  );
  const row = rows[0];
  if (!row) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  if (!row.session_alive) {
    throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  const { session_alive: _alive, ...user } = row;
  return { user, sessionId };
}

const ADMIN_ROLES = ['service_role', 'supabase_admin'];

/** Admin endpoints take the service-role key (or any JWT with an admin role). */
export function requireAdmin(req: IncomingMessage, config: StackConfig): JwtClaims {
  const claims = verifyBearer(req, config);
  if (!ADMIN_ROLES.includes(String(claims.role))) {
    throw forbidden('not_admin', 'User not allowed');
  }
  return claims;
}

/** An entry of `auth.audit_log_entries`, GoTrue's shape. */
export async function audit(
  q: Queryable,
  ip: string | null,
  actor: Pick<UserRow, 'id' | 'email'> | null,
  action: string,
  logType: 'account' | 'token' | 'user' | 'team',
  traits?: Record<string, unknown>,
): Promise<void> {
  const payload = {
    actor_id: actor?.id ?? '',
    actor_username: actor?.email ?? '',
    actor_via_sso: false,
    action,
    log_type: logType,
    ...(traits ? { traits } : {}),
  };
  await q.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ($1, $2, $3::json, now(), $4)`,
    [INSTANCE_ID, randomUUID(), JSON.stringify(payload), (ip ?? '').slice(0, 64)],
  );
}
