/**
 * POST /invite {email, data?} (service-role key only, GoTrue's Invite; supabase-js
 * `auth.admin.inviteUserByEmail`): creates an unconfirmed user without a password (the Before
 * User Created hook checks `data` as for a sign-up) and mails it an invitation link and code
 * (`verifyOtp({ email, token, type: 'invite' })`), which confirm the address and sign in once;
 * the invitee then sets a password (PUT /user). An unconfirmed address is invited again; a
 * confirmed one answers 422 `email_exists`. docs/auth.md, "Staff invitations".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { EMAIL_APP_METADATA, databaseWrite, insertUser, newUserJson } from './accounts.ts';
import { sendAuthMail } from './auth-mail.ts';
import { callPostgresHook, hookMetadata } from './hooks.ts';
import {
  badRequest,
  objectField,
  readJsonObject,
  sendJson,
  stringField,
  versionHeaders,
} from './http.ts';
import { issueToken, resolveRedirect } from './recovery.ts';
import type { AuthService } from './service.ts';
import { originOf } from './service.ts';
import { audit } from './sessions.ts';
import { emailTaken } from './user-update.ts';
import { findUserByEmail, findUserById, userJson } from './users.ts';
import { normalizeEmail } from './validation.ts';

export async function handleInvite(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx } = service;
  const body = await readJsonObject(req);
  const email = normalizeEmail(stringField(body, 'email'));
  const data = objectField(body, 'data');
  if (data === 'invalid') {
    throw badRequest('bad_json', 'Could not parse request body as JSON: data must be an object');
  }
  const requested = stringField(body, 'redirect_to') || url.searchParams.get('redirect_to');
  const redirectTo = resolveRedirect(ctx.config, requested, '/');
  const existing = await findUserByEmail(ctx.db, email);
  if (existing?.email_confirmed_at) throw emailTaken();
  if (!existing) {
    const hook = ctx.config.auth.hooks.beforeUserCreated;
    if (hook) {
      await callPostgresHook(ctx, hook, {
        metadata: hookMetadata(req, 'before-user-created'),
        user: newUserJson(email, data ?? {}),
      });
    }
  }
  const origin = originOf(req);
  const invited = await databaseWrite(service, 'Database error saving new user', emailTaken(), () =>
    ctx.db.tx(async (q) => {
      const id =
        existing?.id ??
        (await insertUser(q, {
          email,
          passwordHash: null,
          confirmed: false,
          userMetadata: data ?? {},
          appMetadata: EMAIL_APP_METADATA,
        }));
      const user = await findUserById(q, id);
      if (!user) throw new Error(`user ${id} vanished while being invited`);
      const token = await issueToken(q, ctx.config, user, 'invite', redirectTo);
      await q.query(`update auth.users set invited_at = now() where id = $1`, [id]);
      await audit(q, origin.ip, null, 'user_invited', 'team', { user_id: id, user_email: email });
      const fresh = (await findUserById(q, id)) ?? user;
      return { user: fresh, token, json: await userJson(q, fresh) };
    }),
  );
  await sendAuthMail(service, req, invited.user, {
    action: 'invite',
    token: invited.token,
    redirectTo,
  });
  sendJson(res, 200, invited.json, versionHeaders(req));
}
