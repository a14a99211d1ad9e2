/**
 * Multi-factor authentication with TOTP, as GoTrue's internal/api/mfa.go: enrol a factor (its
 * secret, `otpauth://` URI and a QR code as SVG), challenge it, verify a code (the session rises
 * to aal2 and its access token says so: `aal`, `amr` with `totp`), unenrol (a verified factor
 * needs aal2; the sessions it raised drop to aal1), and the admin API's list and delete of a
 * user's factors (a lost phone). Tables: `auth.mfa_factors`, `auth.mfa_challenges`,
 * `auth.mfa_amr_claims`, `auth.sessions.aal`. Limits and error codes: docs/auth.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

import type { Queryable } from '../context.ts';
import {
  AuthFailure,
  badRequest,
  forbidden,
  notFound,
  readJsonObject,
  sendJson,
  stringField,
  unprocessable,
  versionHeaders,
} from './http.ts';
import type { AuthService } from './service.ts';
import { assertAllowed, originOf } from './service.ts';
import { audit, authenticate, reissueSession } from './sessions.ts';
import { MFA_LIMITS, base32Encode, qrSvg, totpUri, totpValid } from './totp.ts';
import { findUserById, isUuid } from './users.ts';

export {
  MFA_LIMITS,
  base32Decode,
  base32Encode,
  qrSvg,
  totpAt,
  totpUri,
  totpValid,
} from './totp.ts';

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

type FactorRow = {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  secret: string | null;
};

export async function sessionAal(q: Queryable, sessionId: string): Promise<'aal1' | 'aal2'> {
  const { rows } = await q.query<{ aal: string | null }>(
    `select aal from auth.sessions where id = $1`,
    [sessionId],
  );
  return rows[0]?.aal === 'aal2' ? 'aal2' : 'aal1';
}

export async function factorOf(
  q: Queryable,
  userId: string,
  factorId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<FactorRow> {
  if (!isUuid(factorId)) throw notFound('mfa_factor_not_found', 'Factor not found');
  const { rows } = await q.query<FactorRow>(
    `select id::text as id, user_id::text as user_id, friendly_name, factor_type, status, secret
       from auth.mfa_factors where id = $1 and user_id = $2${lock ? ' for no key update' : ''}`,
    [factorId, userId],
  );
  const factor = rows[0];
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** The address a challenge is bound to (GoTrue refuses a verify from another one). */
function challengeIp(req: IncomingMessage): string {
  const ip = originOf(req).ip;
  return isIP(ip) ? ip : '0.0.0.0';
}

function issuerOf(service: AuthService, given: string): string {
  if (given !== '') return given;
  try {
    return new URL(service.ctx.config.siteUrl).host;
  } catch {
    return 'localhost';
  }
}

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** POST /factors {factor_type: 'totp', friendly_name?, issuer?}. */
export async function handleEnrollFactor(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { ctx } = service;
  const { user, sessionId } = await authenticate(req, ctx.db, ctx.config);
  const body = await readJsonObject(req);
  const factorType = stringField(body, 'factor_type');
  if (factorType === 'phone') {
    throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  }
  if (factorType === 'webauthn') {
    throw unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  }
  if (factorType !== 'totp') {
    throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  }
  if (!ctx.config.auth.mfa.totpEnroll) {
    throw unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
  }
  const friendlyName = stringField(body, 'friendly_name');
  if (friendlyName.length > 120) {
    throw badRequest('validation_failed', 'friendly_name is too long');
  }
  const issuer = issuerOf(service, stringField(body, 'issuer')).slice(0, 120);
  const secret = base32Encode(randomBytes(20));
  const uri = totpUri(issuer, user.email ?? '', secret);
  const factorId = randomUUID();

  const outcome = await ctx.db.tx(async (q) => {
    await q.query(
      `delete from auth.mfa_factors
        where user_id = $1 and status = 'unverified'
          and created_at < now() - make_interval(secs => $2)`,
      [user.id, MFA_LIMITS.factorExpirySeconds],
    );
    const { rows } = await q.query<{ friendly_name: string | null; status: string }>(
      `select friendly_name, status from auth.mfa_factors where user_id = $1 for update`,
      [user.id],
    );
    if (friendlyName !== '' && rows.some((f) => f.friendly_name === friendlyName)) {
      return unprocessable(
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    }
    const verified = rows.filter((f) => f.status === 'verified').length;
    const max = ctx.config.auth.mfa.maxEnrolledFactors;
    if (rows.length >= max || verified >= MFA_LIMITS.maxVerifiedFactors) {
      return unprocessable(
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    if (verified > 0 && (await sessionAal(q, sessionId)) !== 'aal2') {
      return forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    await q.query(
      `insert into auth.mfa_factors
         (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [factorId, user.id, friendlyName, secret],
    );
    await audit(q, originOf(req).ip, user, 'factor_in_progress', 'user', { factor_id: factorId });
    return null;
  });
  if (outcome instanceof AuthFailure) throw outcome;
  sendJson(
    res,
    200,
    {
      id: factorId,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qrSvg(uri), secret, uri },
    },
    versionHeaders(req),
  );
}

/** POST /factors/{id}/challenge → {id, type, expires_at}. */
export async function handleChallengeFactor(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  factorId: string,
): Promise<void> {
  const { ctx } = service;
  const { user } = await authenticate(req, ctx.db, ctx.config);
  await readJsonObject(req);
  if (!ctx.config.auth.mfa.totpVerify) {
    throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
  }
  const challengeId = randomUUID();
  const createdAt = await ctx.db.tx(async (q) => {
    // The factor row first: concurrent challenges of one factor (one staff member's devices)
    // each hold a key-share lock from their insert and then wait on each other's update of the
    // row, which PostgreSQL ends as a deadlock (a 500). Locked first, they queue instead.
    const factor = await factorOf(q, user.id, factorId, { lock: true });
    const { rows } = await q.query<{ at: number }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
       values ($1, $2, now(), $3::inet)
       returning extract(epoch from created_at)::float8 as at`,
      [challengeId, factor.id, challengeIp(req)],
    );
    await q.query(
      `update auth.mfa_factors set last_challenged_at = clock_timestamp(), updated_at = now()
        where id = $1`,
      [factor.id],
    );
    await audit(q, originOf(req).ip, user, 'challenge_created', 'user', {
      factor_id: factor.id,
      factor_status: factor.status,
    });
    return Number(rows[0]?.at ?? Date.now() / 1000);
  });
  sendJson(
    res,
    200,
    {
      id: challengeId,
      type: 'totp',
      expires_at: Math.floor(createdAt) + MFA_LIMITS.challengeExpirySeconds,
    },
    versionHeaders(req),
  );
}

/**
 * POST /factors/{id}/verify {challenge_id, code} → a session at aal2. The challenge must come
 * from the same address, be unused and younger than 300 s. Wrong codes count per factor: past
 * the limit every code is refused for the window (a brute-force defence GoTrue leaves to its
 * per-IP verify limit and the MFA Verification Attempt hook).
 */
export async function handleVerifyFactor(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  factorId: string,
): Promise<void> {
  const { ctx, limits } = service;
  const { user, sessionId } = await authenticate(req, ctx.db, ctx.config);
  const body = await readJsonObject(req);
  const challengeId = stringField(body, 'challenge_id');
  const code = stringField(body, 'code');
  if (code === '') throw badRequest('validation_failed', 'Code needs to be non-empty');
  if (!ctx.config.auth.mfa.totpVerify) {
    throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
  }
  if (!isUuid(challengeId)) {
    throw badRequest('validation_failed', 'challenge_id must be a UUID');
  }
  const origin = originOf(req);
  assertAllowed(limits.verificationsPerIp.take(origin.ip));
  const limitKey = `factor:${factorId}`;
  assertAllowed(limits.otpFailuresPerEmail.check(limitKey));

  const outcome = await ctx.db.tx(async (q) => {
    // A verify of another session of this user may have ended this one (below): say so, as a
    // request with an ended session (GoTrue), rather than fail on the missing row. The lock makes
    // a concurrent verify wait for this one instead of deleting the session under it.
    const live = await q.query(`select 1 from auth.sessions where id = $1 for update`, [sessionId]);
    if (live.rowCount === 0) {
      return forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const factor = await factorOf(q, user.id, factorId);
    const { rows } = await q.query<{ verified: boolean; ip: string; expired: boolean }>(
      `select verified_at is not null as verified, host(ip_address) as ip,
              created_at < now() - make_interval(secs => $3) as expired
         from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
      [challengeId, factor.id, MFA_LIMITS.challengeExpirySeconds],
    );
    const challenge = rows[0];
    if (!challenge) {
      return unprocessable(
        'mfa_factor_not_found',
        'MFA factor with the provided challenge ID not found',
      );
    }
    if (challenge.verified || challenge.ip !== challengeIp(req)) {
      return unprocessable(
        'mfa_ip_address_mismatch',
        'Challenge and verify IP addresses mismatch.',
      );
    }
    if (challenge.expired) {
      await q.query(`delete from auth.mfa_challenges where id = $1`, [challengeId]);
      return unprocessable(
        'mfa_challenge_expired',
        `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    if (!factor.secret || !totpValid(factor.secret, code)) {
      return unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
    }
    await q.query(`update auth.mfa_challenges set verified_at = now() where id = $1`, [
      challengeId,
    ]);
    if (factor.status !== 'verified') {
      await q.query(
        `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
        [factor.id],
      );
    }
    await q.query(
      `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
       values ($1, now(), now(), 'totp', $2)
       on conflict (session_id, authentication_method) do update set updated_at = now()`,
      [sessionId, randomUUID()],
    );
    await q.query(
      `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
      [sessionId, factor.id],
    );
    // GoTrue: the user's other sessions below aal2 end, and unverified factors of the type go.
    // A session that another verify holds (locked above) is left to become aal2 there: taking
    // it here would have two verifies wait on each other.
    await q.query(
      `delete from auth.sessions
        where id in (select id from auth.sessions
                      where user_id = $1 and coalesce(aal, 'aal1') <> 'aal2'
                        for update skip locked)`,
      [user.id],
    );
    await q.query(
      `delete from auth.mfa_factors
        where user_id = $1 and factor_type = 'totp' and status = 'unverified'`,
      [user.id],
    );
    await audit(q, origin.ip, user, 'verification_attempted', 'user', {
      factor_id: factor.id,
      challenge_id: challengeId,
      factor_type: 'totp',
    });
    const fresh = await findUserById(q, user.id);
    if (!fresh) throw new Error(`user ${user.id} vanished during MFA verify`);
    return reissueSession(q, ctx.config, fresh, sessionId);
  });
  if (outcome instanceof AuthFailure) {
    if (outcome.code === 'mfa_verification_failed') limits.otpFailuresPerEmail.hit(limitKey);
    throw outcome;
  }
  limits.otpFailuresPerEmail.reset(limitKey);
  sendJson(res, 200, outcome, versionHeaders(req));
}
