/**
 * supabase-js clients and mailbox helpers for any test runner (Vitest, Playwright): everything
 * takes the stack's URLs and keys explicitly. Vitest tests use ./clients.ts, which fills them in.
 */
import { randomUUID } from 'node:crypto';

import { createClient, type Session, type SupabaseClient, type User } from '@supabase/supabase-js';
import pg from 'pg';

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

/**
 * Node's `fetch`, whose network failures name their cause (`ECONNRESET`, `other side closed`…):
 * supabase-js reports only `fetch failed`, which says nothing about what broke.
 */
const explainedFetch: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (!cause) throw error;
    const what = [cause.code, cause.message].filter(Boolean).join(' ');
    throw new TypeError(`fetch failed: ${what}`, { cause });
  }
};

/** A supabase-js client for Node sending `headers`: no persisted session, no background refresh. */
export function nodeClient(
  apiUrl: string,
  key: string,
  headers: Record<string, string> = {},
): SupabaseClient {
  return createClient(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers, fetch: explainedFetch },
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

/**
 * Runs the check-upload Edge Function now on a booking's files (the storage webhook already
 * asked for it; this waits until each file has its verdict), as staff would wait before
 * accepting. Returns the function's answers.
 */
export async function checkBookingFiles(
  stack: Pick<TestStackInfo, 'apiUrl' | 'serviceRoleKey'>,
  bookingId: string,
): Promise<unknown[]> {
  const service = nodeClient(stack.apiUrl, stack.serviceRoleKey);
  const { data, error } = await service
    .from('bookings')
    .select('license_path, flight_document_path')
    .eq('id', bookingId)
    .single();
  if (error) throw new Error(`booking ${bookingId}: ${error.message}`);
  const files: Array<[string, string | null]> = [
    ['licenses', data.license_path as string | null],
    ['flight-documents', data.flight_document_path as string | null],
  ];
  const answers: unknown[] = [];
  for (const [bucket, name] of files) {
    if (!name) continue;
    const res = await fetch(`${stack.apiUrl}/functions/v1/check-upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ type: 'INSERT', record: { bucket_id: bucket, name } }),
    });
    if (!res.ok) throw new Error(`check-upload answered ${res.status}: ${await res.text()}`);
    answers.push(await res.json());
  }
  return answers;
}

/**
 * Waits until each file of a booking has a verdict from check-upload (called by the upload's
 * webhook), without calling it again.
 */
export async function waitForFileChecks(dbUrl: string, bookingId: string, timeoutMs = 15_000) {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await db.query<{ unchecked: number }>(
        `select count(*)::int as unchecked
           from public.bookings b,
                lateral (values ('licenses', b.license_path),
                                ('flight-documents', b.flight_document_path)) f (bucket_id, name)
          where b.id = $1 and f.name is not null
            and not exists (select 1 from internal.upload_checks c
                             where c.bucket_id = f.bucket_id and c.name = f.name)`,
        [bookingId],
      );
      if (rows[0]?.unchecked === 0) return;
      if (Date.now() > deadline) throw new Error(`files of ${bookingId} still unchecked`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await db.end();
  }
}

/** The link and the code of an auth mail (recovery, sign-up confirmation, e-mail change). */
export function parseAuthMail(text: string): { link: URL; code: string } {
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)?.[0];
  const code = /\b(\d{6,10})\b/.exec(text)?.[1];
  if (!link || !code) throw new Error(`No link or code in the mail:\n${text}`);
  return { link: new URL(link), code };
}

/** A subscription of the local push service (what `PushManager.subscribe` gives a page). */
export type PushDevice = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
};

/** A message the local push service received, decrypted. */
export type ReceivedPush = {
  id: number;
  endpoint: string;
  receivedAt: string;
  ttl: number | null;
  urgency: string | null;
  topic: string | null;
  text: string;
  json: Record<string, unknown> | null;
};

/** A new device subscribed at the local push service with the stack's VAPID public key. */
export async function subscribePushDevice(
  pushUrl: string,
  applicationServerKey: string,
): Promise<PushDevice> {
  const res = await fetch(`${pushUrl}/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ applicationServerKey }),
  });
  if (!res.ok) throw new Error(`push subscribe: ${res.status} ${await res.text()}`);
  return (await res.json()) as PushDevice;
}

/** What the device received (newest first). */
export async function fetchPushes(pushUrl: string, endpoint: string): Promise<ReceivedPush[]> {
  const res = await fetch(`${pushUrl}/api/messages?endpoint=${encodeURIComponent(endpoint)}`);
  if (!res.ok) throw new Error(`push inbox: ${res.status}`);
  return (await res.json()) as ReceivedPush[];
}

/** Waits until the device has received `count` messages (or one matching `match`). */
export async function waitForPushAt(
  pushUrl: string,
  endpoint: string,
  match: (push: ReceivedPush) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<ReceivedPush> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await fetchPushes(pushUrl, endpoint)).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no push for ${endpoint} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The device unsubscribed: the push service answers 410 from now on. */
export async function expirePushDevice(pushUrl: string, device: PushDevice): Promise<void> {
  const res = await fetch(`${pushUrl}/api/expire/${device.clientHash}`, { method: 'POST' });
  if (!res.ok) throw new Error(`push expire: ${res.status}`);
}

/** The push service answers `status` to the device's next `count` messages (an outage). */
export async function failPushDevice(
  pushUrl: string,
  device: PushDevice,
  status: number,
  count = 1,
): Promise<void> {
  const res = await fetch(`${pushUrl}/api/fail/${device.clientHash}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status, count }),
  });
  if (!res.ok) throw new Error(`push fail: ${res.status}`);
}
