/**
 * The admin API (service-role key only): GET/POST /admin/users, GET/PUT/DELETE /admin/users/{id}.
 * POST /admin/generate_link lives with recovery (recovery.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Queryable } from '../context.ts';
import { databaseWrite, insertUser, patchMetadata } from './accounts.ts';
import { changeEmail, emailTaken } from './user-update.ts';
import {
  badRequest,
  notFound,
  objectField,
  readJsonObject,
  sendJson,
  stringField,
  versionHeaders,
} from './http.ts';
import { hashPassword } from './passwords.ts';
import { originOf } from './service.ts';
import type { AuthService } from './service.ts';
import { audit, endSessions } from './sessions.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserById, USER_SELECT, userJson, usersJson } from './users.ts';
import { assertStrongPassword, normalizeEmail, passwordPolicy } from './validation.ts';

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

function positiveInt(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw badRequest('validation_failed', 'Bad Pagination Parameters');
  }
  return Number(raw);
}

/**
 * GET /admin/users?page=1&per_page=50: newest first, with GoTrue's `X-Total-Count` and `Link`
 * (`<…?page=2&per_page=50>; rel="next", <…?page=9&per_page=50>; rel="last"`) headers.
 */
export async function handleListUsers(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { ctx } = service;
  const page = positiveInt(url.searchParams.get('page'), 1);
  const perPage = Math.min(
    positiveInt(url.searchParams.get('per_page'), DEFAULT_PER_PAGE),
    MAX_PER_PAGE,
  );
  const filter = (url.searchParams.get('filter') ?? '').trim();
  const pattern = filter === '' ? null : `%${filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = `where ($1::text is null or u.email ilike $1)`;
  const { rows: countRows } = await ctx.db.query<{ total: number }>(
    `select count(*)::int as total from auth.users u ${where}`,
    [pattern],
  );
  const total = Number(countRows[0]?.total ?? 0);
  const { rows } = await ctx.db.query<UserRow>(
    `${USER_SELECT} ${where} order by u.created_at desc, u.id limit $2 offset $3`,
    [pattern, perPage, (page - 1) * perPage],
  );
  const users = await usersJson(ctx.db, rows);

  const base = `${ctx.config.apiUrl.replace(/\/+$/, '')}/auth/v1/admin/users`;
  const pageLink = (n: number) => {
    const query = new URLSearchParams({ page: String(n), per_page: String(perPage) });
    if (filter !== '') query.set('filter', filter);
    return `<${base}?${query.toString()}>`;
  };
  const links: string[] = [];
  if (total > page * perPage) links.push(`${pageLink(page + 1)}; rel="next"`);
  links.push(`${pageLink(Math.ceil(total / perPage))}; rel="last"`);
  sendJson(
    res,
    200,
    { users, aud: 'authenticated' },
    {
      ...versionHeaders(req),
      'x-total-count': String(total),
      link: links.join(', '),
    },
  );
}

function metadataParam(
  body: Record<string, unknown>,
  name: string,
): Record<string, unknown> | null {
  const value = objectField(body, name);
  if (value === 'invalid') {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${name} must be an object`);
  }
  return value;
}

const GO_DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`24h`, `1h30m`, `876000h`) in milliseconds, as GoTrue's `ban_duration` takes. */
export function parseGoDuration(raw: string): number | null {
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== raw) return null;
  return parts.reduce(
    (sum, [, value, unit]) => sum + Number(value) * (GO_DURATION_UNITS[unit ?? ''] ?? 0),
    0,
  );
}

/** Bans (or with `none`, unbans) a user; a ban also ends the user's sessions. */
async function applyBan(q: Queryable, userId: string, banDuration: string): Promise<void> {
  if (banDuration === 'none') {
    await q.query(`update auth.users set banned_until = null, updated_at = now() where id = $1`, [
      userId,
    ]);
    return;
  }
  const ms = parseGoDuration(banDuration);
  if (ms === null) throw badRequest('validation_failed', 'invalid format for ban duration');
  await q.query(
    `update auth.users
        set banned_until = now() + make_interval(secs => $2), updated_at = now()
      where id = $1`,
    [userId, ms / 1000],
  );
  await endSessions(q, userId, 'global', null);
}

/**
 * POST /admin/users {email, password?, email_confirm?, user_metadata?, app_metadata?,
 * ban_duration?}: the new user (200).
 */
export async function handleCreateUser(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { ctx, options } = service;
  const body = await readJsonObject(req);
  const rawEmail = stringField(body, 'email');
  if (rawEmail === '' && stringField(body, 'phone') !== '') {
    throw badRequest('phone_provider_disabled', 'Phone users are not supported');
  }
  const email = normalizeEmail(rawEmail);
  const password = typeof body.password === 'string' ? body.password : null;
  if (password !== null) assertStrongPassword(password, passwordPolicy(service.ctx.config.auth));
  const userMetadata = metadataParam(body, 'user_metadata') ?? {};
  const appMetadata = metadataParam(body, 'app_metadata') ?? {};
  const banDuration = stringField(body, 'ban_duration');
  if (await findUserByEmail(ctx.db, email)) throw emailTaken();
  const passwordHash = password === null ? null : await hashPassword(password, options.bcryptCost);

  const created = await databaseWrite(
    service,
    'Database error creating new user',
    emailTaken(),
    () =>
      ctx.db.tx(async (q) => {
        const userId = await insertUser(q, {
          email,
          passwordHash,
          confirmed: body.email_confirm === true,
          userMetadata,
          appMetadata: { ...appMetadata, provider: 'email', providers: ['email'] },
        });
        if (banDuration !== '') await applyBan(q, userId, banDuration);
        await audit(q, originOf(req).ip, null, 'user_signedup', 'team', {
          provider: 'email',
          user_id: userId,
          user_email: email,
        });
        const user = await findUserById(q, userId);
        if (!user) throw new Error(`user ${userId} vanished after creation`);
        return userJson(q, user);
      }),
  );
  sendJson(res, 200, created, versionHeaders(req));
}

async function userOr404(q: Queryable, id: string): Promise<UserRow> {
  const user = await findUserById(q, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** GET /admin/users/{id}. */
export async function handleGetUserById(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const user = await userOr404(service.ctx.db, id);
  sendJson(res, 200, await userJson(service.ctx.db, user), versionHeaders(req));
}

/**
 * PUT /admin/users/{id} {email?, password?, email_confirm?, user_metadata?, app_metadata?,
 * ban_duration?}: metadata is merged (null removes a key).
 */
export async function handleUpdateUserById(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const { ctx, options } = service;
  const body = await readJsonObject(req);
  const user = await userOr404(ctx.db, id);
  const rawEmail = stringField(body, 'email');
  const email = rawEmail === '' ? null : normalizeEmail(rawEmail);
  const password = typeof body.password === 'string' ? body.password : null;
  if (password !== null) assertStrongPassword(password, passwordPolicy(service.ctx.config.auth));
  const userMetadata = metadataParam(body, 'user_metadata');
  const appMetadata = metadataParam(body, 'app_metadata');
  const banDuration = stringField(body, 'ban_duration');
  const passwordHash = password === null ? null : await hashPassword(password, options.bcryptCost);

  const updated = await databaseWrite(service, 'Database error updating user', emailTaken(), () =>
    ctx.db.tx(async (q) => {
      if (email && email !== user.email) await changeEmail(q, user, email);
      if (passwordHash) {
        await q.query(
          `update auth.users set encrypted_password = $2, updated_at = now() where id = $1`,
          [user.id, passwordHash],
        );
      }
      if (body.email_confirm === true && !user.email_confirmed_at) {
        await q.query(`update auth.users set email_confirmed_at = now() where id = $1`, [user.id]);
        await patchMetadata(q, user.id, 'raw_user_meta_data', { email_verified: true });
      }
      if (userMetadata) await patchMetadata(q, user.id, 'raw_user_meta_data', userMetadata);
      if (appMetadata) await patchMetadata(q, user.id, 'raw_app_meta_data', appMetadata);
      if (banDuration !== '') await applyBan(q, user.id, banDuration);
      await audit(q, originOf(req).ip, null, 'user_modified', 'user', { user_id: user.id });
      return userJson(q, await userOr404(q, user.id));
    }),
  );
  sendJson(res, 200, updated, versionHeaders(req));
}

/**
 * DELETE /admin/users/{id} {should_soft_delete?}: removes the user (its identities, sessions and
 * tokens go with it). A soft delete keeps the row, anonymised and unable to sign in, as GoTrue's.
 */
export async function handleDeleteUserById(
  service: AuthService,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const { ctx } = service;
  const body = await readJsonObject(req);
  const user = await userOr404(ctx.db, id);
  const soft = body.should_soft_delete === true;
  await databaseWrite(service, 'Database error deleting user', null, () =>
    ctx.db.tx(async (q) => {
      await endSessions(q, user.id, 'global', null);
      await q.query(`delete from auth.refresh_tokens where user_id = $1`, [user.id]);
      if (soft) {
        await q.query(`delete from auth.identities where user_id = $1`, [user.id]);
        await q.query(`delete from auth.one_time_tokens where user_id = $1`, [user.id]);
        await q.query(
          `update auth.users
              set email = null, phone = null, encrypted_password = '',
                  raw_user_meta_data = '{}'::jsonb,
                  recovery_token = '', deleted_at = now(), banned_until = 'infinity',
                  updated_at = now()
            where id = $1`,
          [user.id],
        );
      } else {
        await q.query(`delete from auth.users where id = $1`, [user.id]);
      }
      await audit(q, originOf(req).ip, null, 'user_deleted', 'team', {
        user_id: user.id,
        user_email: user.email,
        soft,
      });
    }),
  );
  sendJson(res, 200, {}, versionHeaders(req));
}
