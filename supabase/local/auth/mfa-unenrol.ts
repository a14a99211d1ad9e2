/**
 * Removing TOTP factors (supabase/local/auth/mfa.ts): DELETE /factors/{id} and the admin API's
 * list and delete of a user's factors (a lost phone), as GoTrue's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import { AuthFailure, notFound, sendJson, unprocessable, versionHeaders } from './http.ts';
import { factorOf, sessionAal } from './mfa.ts';
import type { AuthService } from './service.ts';
import { originOf } from './service.ts';
import { audit, authenticate } from './sessions.ts';
import { factorJson, factorsOfUser, findUserById } from './users.ts';

/**
 * Deletes a factor and drops the sessions it raised to aal1 (their `totp` claim removed), as
 * GoTrue's Factor.DowngradeSessionsToAAL1.
 */
async function removeFactor(q: Queryable, factorId: string): Promise<void> {
  const { rows } = await q.query<{ id: string }>(
    `select id::text as id from auth.sessions where factor_id = $1`,
    [factorId],
  );
  for (const { id } of rows) {
    await q.query(
      `delete from auth.mfa_amr_claims where session_id = $1 and authentication_method = 'totp'`,
      [id],
    );
    await q.query(
      `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where id = $1`,
      [id],
    );
  }
  await q.query(`delete from auth.mfa_factors where id = $1`, [factorId]);
}

/** DELETE /factors/{id}: a verified factor needs an aal2 session. */
export async function handleUnenrollFactor(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  factorId: string,
): Promise<void> {
  const { ctx } = service;
  const { user, sessionId } = await authenticate(req, ctx.db, ctx.config);
  const outcome = await ctx.db.tx(async (q) => {
    const factor = await factorOf(q, user.id, factorId);
    if (factor.status === 'verified' && (await sessionAal(q, sessionId)) !== 'aal2') {
      return unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await removeFactor(q, factor.id);
    await audit(q, originOf(req).ip, user, 'factor_deleted', 'user', {
      factor_id: factor.id,
      factor_status: factor.status,
      session_id: sessionId,
    });
    return null;
  });
  if (outcome instanceof AuthFailure) throw outcome;
  sendJson(res, 200, { id: factorId }, versionHeaders(req));
}

/** GET /admin/users/{id}/factors (service role). */
export async function handleAdminListFactors(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  userId: string,
): Promise<void> {
  const { ctx } = service;
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('user_not_found', 'User not found');
  const factors = await factorsOfUser(ctx.db, user.id);
  sendJson(res, 200, factors.map(factorJson), versionHeaders(req));
}

/** DELETE /admin/users/{id}/factors/{factorId} (service role): a lost phone. */
export async function handleAdminDeleteFactor(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  userId: string,
  factorId: string,
): Promise<void> {
  const { ctx } = service;
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('user_not_found', 'User not found');
  const removed = await ctx.db.tx(async (q) => {
    const factors = await factorsOfUser(q, user.id);
    const factor = factors.find((f) => f.id === factorId);
    if (!factor) return null;
    await removeFactor(q, factor.id);
    await audit(q, null, null, 'factor_deleted', 'user', { factor_id: factor.id });
    return factorJson(factor);
  });
  if (!removed) throw notFound('mfa_factor_not_found', 'Factor not found');
  sendJson(res, 200, removed, versionHeaders(req));
}
