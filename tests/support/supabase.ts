/**
 * supabase-js clients and mailbox helpers for any test runner (Vitest, Playwright): everything
 * takes the stack's URLs and keys explicitly. Vitest tests use ./clients.ts, which fills them in.
 */
import { randomUUID } from 'node:crypto';

import { createClient, type Session, type SupabaseClient, type User } from '@supabase/supabase-js';

import type { TestStackInfo } from './stack.ts';

/**
 * Realtime is not part of the local stack, and Node 20 has no WebSocket: supabase-js gets a
 * transport that refuses to connect, which it only uses if a test subscribes to a channel.
 */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

/** A supabase-js client for Node: no persisted session, no background refresh. */
export function nodeClient(apiUrl: string, key: string): SupabaseClient {
  return createClient(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
  });
}

/** An address no other test uses (the domain is reserved for tests). */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@kiraa.test`;
}

export const TEST_PASSWORD = 'Test-pass1!';

export type TestUser = {
  client: SupabaseClient;
  user: User;
  session: Session;
  email: string;
  password: string;
};

/**
 * Signs up a fresh user through the auth API (email confirmation is off locally) and returns a
 * client signed in as them. Metadata defaults to a valid Kiraa profile.
 */
export async function signUpUser(
  stack: Pick<TestStackInfo, 'apiUrl' | 'anonKey'>,
  options: { email?: string; password?: string; metadata?: Record<string, unknown> } = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? TEST_PASSWORD;
  const client = nodeClient(stack.apiUrl, stack.anonKey);
  const { data, error } = await client.auth.signUp({
    email,
    password,
    options: {
      data: options.metadata ?? {
        name: 'Test User',
        phone: '+213555000111',
        age: 30,
        address: '1 rue Didouche Mourad, Alger',
      },
    },
  });
  if (error) throw error;
  if (!data.session || !data.user) throw new Error(`Sign-up of ${email} returned no session.`);
  return { client, user: data.user, session: data.session, email, password };
}

export type MailboxMessage = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  createdAt: string;
};

/** Mails the stack sent to `to` (newest first). */
export async function fetchMails(mailboxUrl: string, to: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`The mailbox answered ${res.status}.`);
  return (await res.json()) as MailboxMessage[];
}

/** Waits until a mail to `to` matching `match` arrives (the relay polls every second). */
export async function waitForMailAt(
  mailboxUrl: string,
  to: string,
  match: (mail: MailboxMessage) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<MailboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await fetchMails(mailboxUrl, to)).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} after ${timeoutMs} ms.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The link and the code of an auth mail (recovery, sign-up confirmation, e-mail change). */
export function parseAuthMail(text: string): { link: URL; code: string } {
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)?.[0];
  const code = /\b(\d{6,10})\b/.exec(text)?.[1];
  if (!link || !code) throw new Error(`No link or code in the mail:\n${text}`);
  return { link: new URL(link), code };
}
