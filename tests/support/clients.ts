/**
 * Helpers for Vitest API tests, bound to the run's local stack (see global-setup.ts).
 * The same helpers without Vitest, for Playwright, are in ./supabase.ts.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { inject } from 'vitest';

import type { TestStackInfo } from './stack.ts';
import {
  fetchMails,
  nodeClient,
  signUpUser,
  waitForMailAt,
  type MailboxMessage,
  type TestUser,
} from './supabase.ts';

export { TEST_PASSWORD, uniqueEmail, type MailboxMessage, type TestUser } from './supabase.ts';

/** The run's stack (URLs and keys). */
export function testStack(): TestStackInfo {
  const stack = inject('kiraaStack');
  if (!stack) throw new Error('No local stack: run API tests in the Vitest "api" project.');
  return stack;
}

/** A client with the anon key (a signed-out visitor). */
export function anonClient(stack: TestStackInfo = testStack()): SupabaseClient {
  return nodeClient(stack.apiUrl, stack.anonKey);
}

/** A client with the service-role key (bypasses RLS: setup and checks only). */
export function serviceClient(stack: TestStackInfo = testStack()): SupabaseClient {
  return nodeClient(stack.apiUrl, stack.serviceRoleKey);
}

/** A fresh user with a unique email, signed up and signed in (see signUpUser). */
export function signedUpUser(
  options: Parameters<typeof signUpUser>[1] = {},
  stack: TestStackInfo = testStack(),
): Promise<TestUser> {
  return signUpUser(stack, options);
}

let pool: pg.Pool | null = null;

/** Runs SQL as the database superuser (setup, probes and checks that bypass the API). */
export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (!pool) {
    pool = new pg.Pool({ connectionString: testStack().dbUrl, max: 2 });
    // A connection the database closes (a restart: tests/api/stack.test.ts) is replaced.
    pool.on('error', () => {});
  }
  const result = await pool.query<T>(text, params);
  return result.rows;
}

/** Polls `probe` every 100 ms until it returns a truthy value, and returns that value. */
export async function until<T>(
  probe: () => Promise<T | null | undefined>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until PostgREST's schema cache knows these tables, views or functions (`rpc/name`), after
 * DDL in a test. The stack reloads the cache by itself after DDL; this waits for that reload.
 * (A plain GET is no proof: PostgREST can read a table it has not cached yet, not write to it.)
 */
export async function waitForSchemaCache(names: string[], timeoutMs = 15_000): Promise<void> {
  const { apiUrl, serviceRoleKey } = testStack();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${apiUrl}/rest/v1/`, { headers: { apikey: serviceRoleKey } });
    const paths = res.ok ? Object.keys(((await res.json()) as { paths?: object }).paths ?? {}) : [];
    const missing = names.filter((name) => !paths.includes(`/${name}`));
    if (missing.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `PostgREST's schema cache still lacks ${missing.join(', ')} after ${timeoutMs} ms.`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Mails the stack sent to `to` (newest first). */
export function mailsTo(to: string): Promise<MailboxMessage[]> {
  return fetchMails(testStack().mailboxUrl, to);
}

/** Waits until a mail to `to` matching `match` arrives (the relay polls every second). */
export function waitForMail(
  to: string,
  match?: (mail: MailboxMessage) => boolean,
  timeoutMs?: number,
): Promise<MailboxMessage> {
  return waitForMailAt(testStack().mailboxUrl, to, match, timeoutMs);
}
