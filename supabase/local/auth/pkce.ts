/**
 * PKCE for the mail links (docs/auth.md, "PKCE"), as GoTrue's internal/api/pkce.go and token.go:
 * `/recover`, `/otp` and `/signup` accept `code_challenge` + `code_challenge_method` (`s256` or
 * `plain`) and record a flow state (`auth.flow_state`); the mail's link carries `pkce_<token>`, and
 * GET /verify answers it with a redirect to `redirect_to?code=<auth code>` instead of a session in
 * the fragment; `POST /token?grant_type=pkce {auth_code, code_verifier}` turns the code into a
 * session once, within `flow_state_expiry` (300 s) of the request, with the right verifier.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import type { Queryable } from '../context.ts';
import { AuthFailure, badRequest, notFound, stringField, unprocessable } from './http.ts';
import type { OneTimeToken, TokenKind } from './recovery.ts';
import { originOf, type AuthService } from './service.ts';
import { audit, startSession, type SessionJson } from './sessions.ts';
import { findUserById } from './users.ts';

export const PKCE_PREFIX = 'pkce_';
/** GoTrue's FlowStateExpiryDuration default. */
export const FLOW_STATE_EXPIRY_SECONDS = 300;

export type Pkce = { challenge: string; method: 's256' | 'plain' };

/** GoTrue's authentication methods of a flow state, by the link that completes it. */
export type FlowMethod = 'recovery' | 'magiclink' | 'email/signup';

/** `code_challenge` and `code_challenge_method` of a request body (GoTrue's validatePKCEParams). */
export function readPkce(body: Record<string, unknown>): Pkce | null {
  const challenge = stringField(body, 'code_challenge');
  const method = stringField(body, 'code_challenge_method').toLowerCase();
  if ((challenge === '') !== (method === '')) {
    throw badRequest(
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  }
  if (challenge === '') return null;
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      'validation_failed',
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (method !== 's256' && method !== 'plain') {
    throw badRequest('validation_failed', `unsupported code_challenge method "${method}"`);
  }
  return { challenge, method };
}

/** Records the flow state of a PKCE request (inside the caller's transaction). */
export async function createFlowState(
  q: Queryable,
  userId: string,
  method: FlowMethod,
  pkce: Pkce,
): Promise<void> {
  await q.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge,
                                  provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4::auth.code_challenge_method, $5, $6, $6, now(), now())`,
    [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, method],
  );
}

/** The mail's link and hook `token_hash` of a PKCE request: `pkce_` before the token (GoTrue). */
export function pkceLink(token: OneTimeToken): OneTimeToken {
  const linkToken = `${PKCE_PREFIX}${token.linkToken}`;
  const link = new URL(token.actionLink);
  link.searchParams.set('token', linkToken);
  return { ...token, linkToken, actionLink: link.toString() };
}

/** The flow methods a redeemed link of this kind completes. */
function methodsOf(kind: TokenKind): FlowMethod[] {
  if (kind === 'signup') return ['email/signup'];
  if (kind === 'recovery' || kind === 'magiclink') return [kind];
  return [];
}

/**
 * GoTrue's issueAuthCode: the newest flow state of the user for this kind of link gets its
 * code issued (`auth_code_issued_at`), and the code goes to the app in the redirect.
 */
export async function issueAuthCode(
  q: Queryable,
  userId: string,
  kind: TokenKind,
): Promise<string | AuthFailure> {
  const { rows } = await q.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
      where id = (select id from auth.flow_state
                   where user_id = $1 and authentication_method = any($2::text[])
                   order by created_at desc limit 1)
      returning auth_code`,
    [userId, methodsOf(kind)],
  );
  if (!rows[0]) {
    return badRequest(
      'flow_state_not_found',
      'No associated flow state found. 422: No valid flow state found for user.',
    );
  }
  return rows[0].auth_code;
}

function challengeOf(verifier: string, method: string): string {
  return method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

/** POST /token?grant_type=pkce {auth_code, code_verifier}: the session, once. */
export async function pkceGrant(
  service: AuthService,
  req: IncomingMessage,
  body: Record<string, unknown>,
): Promise<SessionJson> {
  const authCode = stringField(body, 'auth_code');
  const verifier = stringField(body, 'code_verifier');
  if (authCode === '' || verifier === '') {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const { ctx } = service;
  const origin = originOf(req);
  const outcome = await ctx.db.tx(async (q): Promise<SessionJson | AuthFailure> => {
    const { rows } = await q.query<{
      id: string;
      user_id: string | null;
      code_challenge: string;
      method: string;
      expired: boolean;
    }>(
      `select id, user_id::text as user_id, code_challenge, code_challenge_method::text as method,
              coalesce(case when authentication_method = 'magiclink'
                            then auth_code_issued_at else created_at end, created_at)
                < now() - make_interval(secs => $2) as expired
         from auth.flow_state
        where auth_code = $1 and auth_code_issued_at is not null
        for update`,
      [authCode, FLOW_STATE_EXPIRY_SECONDS],
    );
    const flow = rows[0];
    if (!flow?.user_id) {
      return notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    if (flow.expired) {
      return unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    const user = await findUserById(q, flow.user_id);
    if (!user) return notFound('user_not_found', 'User not found');
    const expected = Buffer.from(flow.code_challenge);
    const given = Buffer.from(challengeOf(verifier, flow.method));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return badRequest(
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await audit(q, origin.ip, user, 'login', 'account', { provider_type: 'email' });
    await q.query(`delete from auth.flow_state where id = $1`, [flow.id]);
    return startSession(q, ctx.config, user.id, 'otp', origin);
  });
  if (outcome instanceof AuthFailure) throw outcome;
  return outcome;
}
