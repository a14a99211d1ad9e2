/**
 * PUT /user (docs/auth.md): metadata, password (with the reauthentication nonce) and the e-mail
 * change with its mails (`double_confirm_changes`); `changeEmail` for the admin API. Split from
 * accounts.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import {
  badRequest,
  objectField,
  readJsonObject,
  sendJson,
  stringField,
  unprocessable,
  versionHeaders,
} from './http.ts';

import { hashPassword, verifyPassword } from './passwords.ts';
import { sendAuthMail } from './auth-mail.ts';

import { assertReauthenticated } from './otp.ts';

import { clearRecovery, issueToken, resolveRedirect, type OneTimeToken } from './recovery.ts';
import { originOf } from './service.ts';
import type { AuthService } from './service.ts';

import { audit, authenticate, endSessions } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, userJson } from './users.ts';
import { assertStrongPassword, normalizeEmail, passwordPolicy } from './validation.ts';

import { databaseWrite, patchMetadata } from './accounts.ts';

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
      // GoTrue's user.go with secure_password_change: a session older than 24 h (or none)
      // changes the password only with the code of GET /reauthenticate (supabase-js `nonce`);
      // a recent sign-in is proof enough.
      if (passwordHash && ctx.config.auth.email.securePasswordChange) {
        const { rows } = await q.query<{ recent: boolean }>(
          `select created_at > now() - interval '24 hours' as recent
             from auth.sessions where id = $1`,
          [sessionId || null],
        );
        if (!rows[0]?.recent) {
          if (nonce === '') {
            throw badRequest(
              'reauthentication_needed',
              'Password update requires reauthentication',
            );
          }
          await assertReauthenticated(service, q, user, nonce);
        }
      }
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
export async function mailEmailChange(
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
