/**
 * Auth hooks, called as GoTrue calls them (internal/hooks in supabase/auth): a Postgres function
 * (`pg-functions://<database>/<schema>/<function>`) runs as `supabase_auth_admin` in its own
 * transaction with a 2 s statement timeout and gets the event as one jsonb argument; an answer
 * `{error: {http_code, message}}` becomes GoTrue's error (the status, or 500 without one).
 * Which hooks run is config.toml's [auth.hook.*].
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import type { ServiceContext } from '../context.ts';
import type { HookSettings } from '../settings.ts';
import { AuthFailure, clientIp } from './http.ts';

/** GoTrue's hook timeout. */
const HOOK_TIMEOUT_MS = 2000;

export type HookName = 'before-user-created' | 'password-verification';

/** The `metadata` GoTrue puts in every hook's input (v0hooks.Metadata). */
export function hookMetadata(req: IncomingMessage, name: HookName) {
  return { uuid: randomUUID(), time: new Date().toISOString(), name, ip_address: clientIp(req) };
}

/** `schema.function` of a pg-functions URI, quoted. */
export function hookFunction(uri: string): string {
  const match = /^pg-functions:\/\/[^/]+\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!match) throw new Error(`Not a pg-functions hook URI: ${uri}`);
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `${quote(match[1]!)}.${quote(match[2]!)}`;
}

/** GoTrue's hookserrors.Check: an `error` object with a message is a failure. */
export function hookFailure(answer: unknown): AuthFailure | null {
  const error = (answer as { error?: { http_code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error.message !== 'string' || error.message === '') return null;
  const status = typeof error.http_code === 'number' && error.http_code > 0 ? error.http_code : 500;
  // GoTrue's HTTPError carries no error code here: the body's code is `unknown` (or
  // `unexpected_failure` for a 500) and no x-sb-error-code header is sent.
  return new AuthFailure(status, '', error.message);
}

/** Runs a Postgres hook and returns its answer (throws GoTrue's error when it answers one). */
export async function callPostgresHook<T>(
  ctx: ServiceContext,
  hook: HookSettings,
  input: unknown,
): Promise<T> {
  const fn = hookFunction(hook.uri);
  let answer: unknown;
  try {
    answer = await ctx.db.tx(async (q) => {
      await q.query('set local role supabase_auth_admin');
      await q.query(`set local statement_timeout to '${HOOK_TIMEOUT_MS}'`);
      const { rows } = await q.query<{ answer: unknown }>(`select ${fn}($1::jsonb) as answer`, [
        JSON.stringify(input),
      ]);
      return rows[0]?.answer ?? null;
    });
  } catch (error) {
    ctx.log(`auth: hook ${hook.uri} failed: ${(error as Error).message}`);
    throw new AuthFailure(500, 'unexpected_failure', 'Error running hook URI: ' + hook.uri);
  }
  const failure = hookFailure(answer);
  if (failure) throw failure;
  return (answer ?? {}) as T;
}
