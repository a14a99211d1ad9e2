/**
 * One contract, two targets: the calls the app makes (through supabase-js, or as it sends them),
 * each with the status, error code and body keys that GoTrue, storage-api and PostgREST answer,
 * written from their sources (supabase/auth internal/api/errors.go and apiversions.go: with
 * `X-Supabase-Api-Version: 2024-01-01` an error is `{code, message}` plus the `x-sb-error-code`
 * header). `npm test` runs it against a local stack with supabase/config.toml as it is;
 * `SUPABASE_URL=… SUPABASE_ANON_KEY=… SUPABASE_SERVICE_ROLE_KEY=… npm run test:contract` runs the
 * same rows against a hosted project (docs/deployment.md).
 *
 * A row where the local stack is stricter on purpose says so in its name ("stricter locally") and
 * names what enforces the rule on hosted; the list is in DIFFERENCES below and docs/auth.md.
 */
import { createHmac, randomUUID } from 'node:crypto';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { signJwt } from '../../supabase/local/jwt.ts';
import { fetchMails } from '../support/supabase.ts';

const target = inject('contractTarget');
const local = target.kind === 'local';
/** The per-account lockout is a Team/Enterprise feature (docs/deployment.md, "Plans"). */
const TEAM_PLAN = target.plan === 'team' || target.plan === 'enterprise';

/** Where local and hosted answer differently on purpose, and what holds the rule on hosted. */
export const DIFFERENCES = [
  {
    row: 'storage: a file whose bytes are not its declared type',
    local: 'refused at upload (415 in the body) by the storage server, which reads the bytes',
    hosted:
      'stored (storage-api checks the declared type only); the check-upload Edge Function checks the bytes before staff can act',
  },
  {
    row: 'auth: wrong recovery codes for one address',
    local: '5 per hour per address, then 429 over_request_rate_limit',
    hosted:
      'config.toml: otp_length = 8 (10^8 codes), token_verifications 30 per 5 min per address, CAPTCHA when enabled',
  },
  {
    row: 'auth: recovery mails from one client address',
    local: '30 per hour, then 429',
    hosted:
      'config.toml: max_frequency 60 s per address, email_sent per hour for the project, CAPTCHA when enabled',
  },
  {
    row: 'auth: a refresh token whose answer was lost',
    local: 'a new successor (only hashes are stored)',
    hosted: 'the same successor again (GoTrue stores the tokens)',
  },
] as const;

const PROFILE = { name: 'Rania Mansouri', phone: '+213550333444', age: 26, address: 'Béjaïa' };
const PASSWORD = 'Kiraa-contract1!';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used by the contract.');
  }
}

function client(key = target.anonKey): SupabaseClient {
  return createClient(target.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Answer = { status: number; headers: Headers; body: Record<string, unknown> | null };

/** A call as supabase-js sends it (apikey, API version), answered raw. */
async function call(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    key?: string;
    bearer?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers = new Headers({
    apikey: init.key ?? target.anonKey,
    'x-supabase-api-version': '2024-01-01',
    ...init.headers,
  });
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  let sent = init.body;
  // A project with CAPTCHA on wants a token with every sign-up, sign-in and recovery.
  if (target.captchaToken && /^\/auth\/v1\/(signup|token|recover)/.test(path) && isObject(sent)) {
    sent = { ...sent, gotrue_meta_security: { captcha_token: target.captchaToken } };
  }
  const res = await fetch(`${target.url}${path}`, {
    method: init.method ?? (sent === undefined ? 'GET' : 'POST'),
    headers,
    body: sent === undefined ? undefined : JSON.stringify(sent),
    redirect: 'manual',
  });
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body };
}

/** GoTrue's 2024-01-01 error: status, `{code, message}` and the code in x-sb-error-code. */
function expectAuthError(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ code, message: expect.any(String) });
  expect(answer.body).not.toHaveProperty('error_code');
  expect(answer.body).not.toHaveProperty('msg');
  expect(answer.headers.get('x-sb-error-code')).toBe(code);
}

const email = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@${target.emailDomain}`;

/** A confirmed user made with the admin API (the service key), as staff tools would. */
async function confirmedUser(prefix = 'contract'): Promise<{ email: string; id: string }> {
  const address = email(prefix);
  const res = await call('/auth/v1/admin/users', {
    key: target.serviceRoleKey,
    bearer: target.serviceRoleKey,
    body: { email: address, password: PASSWORD, email_confirm: true, user_metadata: PROFILE },
  });
  expect(res.status).toBe(200);
  return { email: address, id: String(res.body?.id) };
}

async function signIn(address: string): Promise<Answer> {
  return call('/auth/v1/token?grant_type=password', {
    body: { email: address, password: PASSWORD },
  });
}

const created: string[] = [];
afterAll(async () => {
  for (const id of created) {
    await call(`/auth/v1/admin/users/${id}`, {
      method: 'DELETE',
      key: target.serviceRoleKey,
      bearer: target.serviceRoleKey,
    });
  }
});

describe('auth: sign-up (config.toml: e-mail confirmation on)', () => {
  it('answers the new user without a session', async () => {
    const address = email('signup');
    const res = await call('/auth/v1/signup', {
      body: { email: address, password: PASSWORD, data: PROFILE },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: address, user_metadata: { name: PROFILE.name } });
    for (const key of ['id', 'aud', 'role', 'confirmation_sent_at', 'identities', 'created_at']) {
      expect(res.body).toHaveProperty(key);
    }
    expect(res.body).not.toHaveProperty('access_token');
    created.push(String(res.body?.id));
    // Not confirmed yet: no sign-in.
    expectAuthError(await signIn(address), 400, 'email_not_confirmed');
  });

  it('refuses bad profile data with 422 and `<field>: <reason>`, no error code (Before User Created hook)', async () => {
    const res = await call('/auth/v1/signup', {
      body: { email: email('minor'), password: PASSWORD, data: { ...PROFILE, age: 16 } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'unknown', message: 'age: under_age' });
    expect(res.headers.get('x-sb-error-code')).toBeNull();
  });

  it('refuses a weak password with 422 weak_password and its reasons, without x-sb-error-code (config.toml policy)', async () => {
    const res = await call('/auth/v1/signup', {
      body: { email: email('weak'), password: 'kiraa2026', data: PROFILE },
    });
    // GoTrue (internal/api/errors.go, handleResponseErrorWeakPassword) sends the header only to
    // clients without API version 2024-01-01; supabase-js reads the body's code.
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'weak_password', message: expect.any(String) });
    expect(res.body).toMatchObject({ weak_password: { reasons: ['characters'] } });
    expect(res.headers.get('x-sb-error-code')).toBeNull();
  });

  it('answers a sign-up of a confirmed address like a new one, revealing nothing', async () => {
    const user = await confirmedUser('taken');
    created.push(user.id);
    const res = await call('/auth/v1/signup', {
      body: { email: user.email, password: PASSWORD, data: PROFILE },
    });
    expect(res.status).toBe(200);
    expect(res.body?.id).not.toBe(user.id);
    expect(res.body?.identities).toEqual([]);
  });
});

describe('auth: sessions', () => {
  let user: { email: string; id: string };
  beforeAll(async () => {
    user = await confirmedUser();
    created.push(user.id);
  });

  it('signs in with the right password', async () => {
    const res = await signIn(user.email);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', user: { id: user.id } });
    for (const key of ['access_token', 'expires_in', 'expires_at', 'refresh_token']) {
      expect(res.body).toHaveProperty(key);
    }
  });

  it('refuses a wrong password with 400 invalid_credentials', async () => {
    const res = await call('/auth/v1/token?grant_type=password', {
      body: { email: user.email, password: 'Wrong-pass1!' },
    });
    expectAuthError(res, 400, 'invalid_credentials');
    expect(res.body?.message).toBe('Invalid login credentials');
  });

  it('gets and updates the user', async () => {
    const token = String((await signIn(user.email)).body?.access_token);
    const me = await call('/auth/v1/user', { bearer: token });
    expect(me.status).toBe(200);
    for (const key of ['id', 'email', 'app_metadata', 'user_metadata', 'identities']) {
      expect(me.body).toHaveProperty(key);
    }
    const updated = await call('/auth/v1/user', {
      method: 'PUT',
      bearer: token,
      body: { data: { locale: 'ar' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ user_metadata: { locale: 'ar', name: PROFILE.name } });
  });

  it('requests an e-mail change without applying it (confirmed by mail at both addresses)', async () => {
    const mover = await confirmedUser('mover');
    created.push(mover.id);
    const token = String((await signIn(mover.email)).body?.access_token);
    const next = email('moved');
    const res = await call('/auth/v1/user', {
      method: 'PUT',
      bearer: token,
      body: { email: next },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: mover.email, new_email: next });
    expect(res.body).toHaveProperty('email_change_sent_at');
  });

  it('refuses a new password that breaks the policy or is the same', async () => {
    const token = String((await signIn(user.email)).body?.access_token);
    const weak = await call('/auth/v1/user', {
      method: 'PUT',
      bearer: token,
      body: { password: 'short' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({ code: 'weak_password' });
    expect(weak.headers.get('x-sb-error-code')).toBeNull();
    expectAuthError(
      await call('/auth/v1/user', { method: 'PUT', bearer: token, body: { password: PASSWORD } }),
      422,
      'same_password',
    );
  });

  it('rotates refresh tokens; a used one works again within the 10 s reuse interval', async () => {
    const first = String((await signIn(user.email)).body?.refresh_token);
    const refresh = (token: string) =>
      call('/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: token } });
    const second = await refresh(first);
    expect(second.status).toBe(200);
    expect(second.body?.refresh_token).not.toBe(first);
    expect((await refresh(first)).status).toBe(200);
  });

  it('answers concurrent refreshes of one token with 200, or 409 conflict', async () => {
    const token = String((await signIn(user.email)).body?.refresh_token);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        call('/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: token } }),
      ),
    );
    for (const answer of answers) {
      if (answer.status === 409) expectAuthError(answer, 409, 'conflict');
      else expect(answer.status).toBe(200);
    }
  });

  it('refuses a used token after the reuse interval once its successor was used, and revokes the family', async () => {
    const first = String((await signIn(user.email)).body?.refresh_token);
    const refresh = (token: string) =>
      call('/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: token } });
    const second = String((await refresh(first)).body?.refresh_token);
    const third = await refresh(second);
    expect(third.status).toBe(200);
    await new Promise((r) => setTimeout(r, 11_000));
    expectAuthError(await refresh(first), 400, 'refresh_token_already_used');
    // The family is revoked: the newest token works only within the next 10 s.
    await new Promise((r) => setTimeout(r, 11_000));
    expectAuthError(
      await refresh(String(third.body?.refresh_token)),
      400,
      'refresh_token_already_used',
    );
  }, 40_000);

  it('signs out one session (204); its refresh token is gone with it', async () => {
    const session = (await signIn(user.email)).body!;
    const other = (await signIn(user.email)).body!;
    const out = await call('/auth/v1/logout?scope=local', {
      bearer: String(session.access_token),
      body: {},
    });
    expect(out.status).toBe(204);
    expectAuthError(
      await call('/auth/v1/token?grant_type=refresh_token', {
        body: { refresh_token: session.refresh_token },
      }),
      400,
      'refresh_token_not_found',
    );
    // The other session lives until a global sign-out.
    expect((await call('/auth/v1/user', { bearer: String(other.access_token) })).status).toBe(200);
    const all = await call('/auth/v1/logout?scope=global', {
      bearer: String(other.access_token),
      body: {},
    });
    expect(all.status).toBe(204);
  });

  it(`after 10 failures on one account: ${TEAM_PLAN ? 'the right password is refused (Password Verification Attempt hook, Team/Enterprise plan)' : 'the right password still works (no lockout hook below Team; CAPTCHA and the token limiter hold)'}`, async () => {
    const victim = await confirmedUser('locked');
    created.push(victim.id);
    for (let i = 0; i < 10; i++) {
      await call('/auth/v1/token?grant_type=password', {
        body: { email: victim.email, password: `Wrong-pass${i}!` },
      });
    }
    const res = await signIn(victim.email);
    if (TEAM_PLAN) {
      expectAuthError(res, 400, 'invalid_credentials');
      expect(res.body?.message).toBe(
        'Too many failed sign-ins for this account: try again in 15 minutes.',
      );
    } else {
      expect(res.status).toBe(200);
    }
  });
});

describe('auth: password recovery', () => {
  it('answers {} for any address, and 403 otp_expired for a wrong code', async () => {
    const user = await confirmedUser('recover');
    created.push(user.id);
    const res = await call('/auth/v1/recover', { body: { email: user.email } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const unknown = await call('/auth/v1/recover', { body: { email: email('nobody') } });
    expect(unknown.status).toBe(200);
    expectAuthError(
      await call('/auth/v1/verify', {
        body: { type: 'recovery', email: user.email, token: '00000000' },
      }),
      403,
      'otp_expired',
    );
  });

  it('turns a recovery link (admin generate_link) into a session; its code has 8 digits', async () => {
    const user = await confirmedUser('link');
    created.push(user.id);
    const link = await call('/auth/v1/admin/generate_link', {
      key: target.serviceRoleKey,
      bearer: target.serviceRoleKey,
      body: { type: 'recovery', email: user.email },
    });
    expect(link.status).toBe(200);
    expect(String(link.body?.email_otp)).toMatch(/^\d{8}$/);
    const verified = await call('/auth/v1/verify', {
      body: { type: 'recovery', token_hash: link.body?.hashed_token },
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toHaveProperty('access_token');
  });
});

describe('storage (booking documents)', () => {
  const pdf = () => {
    const bytes = new Uint8Array(600).fill(0x20);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    bytes.set(new TextEncoder().encode('%%EOF\n'), 594);
    return bytes;
  };
  const path = `${randomUUID()}/licence.pdf`;

  it('lets a guest upload a licence before the booking exists, never read it', async () => {
    const up = await client().storage.from('licenses').upload(path, pdf(), {
      contentType: 'application/pdf',
    });
    expect(up.error).toBeNull();
    expect(up.data?.path).toBe(path);
    const read = await client().storage.from('licenses').download(path);
    expect(read.data).toBeNull();
    expect(read.error).toBeTruthy();
    // The same path again: 409 Duplicate in the body (the outbox treats it as done).
    const again = await client().storage.from('licenses').upload(path, pdf(), {
      contentType: 'application/pdf',
    });
    expect((again.error as { statusCode?: string } | null)?.statusCode).toBe('409');
  });

  it('lets a guest upload a flight document the same way', async () => {
    const up = await client()
      .storage.from('flight-documents')
      .upload(`${randomUUID()}/flight.pdf`, pdf(), { contentType: 'application/pdf' });
    expect(up.error).toBeNull();
  });

  it('lets nobody but staff add car pictures; everyone reads the public bucket', async () => {
    const png = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0,
      1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
    ]);
    const name = `contract-${randomUUID()}.png`;
    const refused = await client().storage.from('cars').upload(name, png, {
      contentType: 'image/png',
    });
    expect((refused.error as { statusCode?: string } | null)?.statusCode).toBe('403');
    const added = await client(target.serviceRoleKey).storage.from('cars').upload(name, png, {
      contentType: 'image/png',
    });
    expect(added.error).toBeNull();
    const res = await fetch(client().storage.from('cars').getPublicUrl(name).data.publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/png/);
    await client(target.serviceRoleKey).storage.from('cars').remove([name]);
  });

  it('signs a link staff can download from', async () => {
    const signed = await client(target.serviceRoleKey)
      .storage.from('licenses')
      .createSignedUrl(path, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(600);
  });

  it('refuses a file over the bucket limit (5 MB)', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    const res = await client()
      .storage.from('licenses')
      .upload(`${randomUUID()}/big.pdf`, big, { contentType: 'application/pdf' });
    expect((res.error as { statusCode?: string } | null)?.statusCode).toBe('413');
  });

  it('stricter locally: a file whose bytes are not its declared type (hosted: the check-upload Edge Function)', async () => {
    const fake = new TextEncoder().encode('not a pdf at all, just text');
    const res = await client()
      .storage.from('licenses')
      .upload(`${randomUUID()}/fake.pdf`, fake, { contentType: 'application/pdf' });
    if (local) {
      expect((res.error as { statusCode?: string } | null)?.statusCode).toBe('415');
    } else {
      expect(res.error).toBeNull();
    }
  });
});

describe('RPCs (PostgREST: the same binary on both)', () => {
  it('refuses a bad payload with P0001 and the stable code', async () => {
    const res = await call('/rest/v1/rpc/quote_booking', { body: { p: {} } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'P0001', message: expect.any(String) });
    for (const key of ['details', 'hint']) expect(res.body).toHaveProperty(key);
  });

  it('answers null for a guest lookup that matches nothing', async () => {
    const res = await call('/rest/v1/rpc/find_guest_booking', {
      body: { reference: 'KR-0000-0000', contact: `nobody@${target.emailDomain}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });

  it.runIf(target.jwtSecret !== null)(
    'refuses a token claiming a role other than the API roles (needs the JWT secret)',
    async () => {
      const now = Math.floor(Date.now() / 1000);
      const forged = signJwt({ role: 'postgres', iat: now, exp: now + 60 }, target.jwtSecret!);
      const res = await call('/rest/v1/cars?select=id&limit=1', { bearer: forged });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    },
  );
});

describe('client address (what every limit by address counts)', () => {
  /** The address the test machine really has: what Cloudflare in front of the project sees. */
  async function realAddress(): Promise<string> {
    if (local) return '127.0.0.1';
    const trace = await (await fetch(`${target.url}/cdn-cgi/trace`)).text();
    const ip = /^ip=(.+)$/m.exec(trace)?.[1];
    if (!ip) throw new Error(`no ip= line in ${target.url}/cdn-cgi/trace`);
    return ip.trim();
  }

  it('is the address the test machine really has; forged cf-connecting-ip and X-Forwarded-For change nothing', async () => {
    const real = await realAddress();
    const plain = await call('/rest/v1/rpc/request_client_address', { body: {} });
    expect(plain.status).toBe(200);
    // Locally the socket's address may be written ::ffff:127.0.0.1; the key is what limits use.
    expect(plain.body?.key === real || plain.body?.address === real).toBe(true);
    const forged = await call('/rest/v1/rpc/request_client_address', {
      body: {},
      headers: { 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '203.0.113.10' },
    });
    expect(forged.status).toBe(200);
    expect(forged.body).toEqual(plain.body);
  });
});

describe('send-email as GoTrue calls it (Send Email hook)', () => {
  /** One attempt as GoTrue's hookshttp Dispatcher makes it: a new webhook-id each time. */
  async function attempt(payload: unknown): Promise<{ status: number; ms: number }> {
    const body = JSON.stringify(payload);
    const id = `msg_${randomUUID()}`;
    const at = Math.floor(Date.now() / 1000);
    const key = Buffer.from(target.sendEmailHookSecret!.replace(/^v1,whsec_/, ''), 'base64');
    const signature = createHmac('sha256', key).update(`${id}.${at}.${body}`).digest('base64');
    const started = Date.now();
    const res = await fetch(`${target.url}/functions/v1/send-email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(at),
        'webhook-signature': `v1,${signature}`,
      },
      body,
    });
    await res.text();
    return { status: res.status, ms: Date.now() - started };
  }

  it.runIf(target.sendEmailHookSecret !== null)(
    'answers within GoTrue’s 5 s, and a retried mail (new webhook-id) is sent once (needs SEND_EMAIL_HOOK_SECRET)',
    async () => {
      const to = email('hook-retry');
      const payload = {
        user: { email: to, user_metadata: { locale: 'fr' } },
        email_data: {
          token: '27182818',
          token_hash: `contract-${randomUUID()}`,
          redirect_to: `${target.url}/`,
          email_action_type: 'reauthentication',
          site_url: `${target.url}/auth/v1`,
        },
      };
      const first = await attempt(payload);
      expect(first.status).toBe(200);
      expect(first.ms).toBeLessThan(5_000);
      const retry = await attempt(payload);
      expect(retry.status).toBe(200);
      if (target.mailboxUrl) {
        // Hosted: the provider's idempotency key holds it; only the local mailbox can be read.
        expect(await fetchMails(target.mailboxUrl, to)).toHaveLength(1);
      }
    },
  );
});

// Last: it uses up this address's recovery limit for the next minutes.
describe('auth: per-address limits (GoTrue apilimiter)', () => {
  it('keeps password sign-ins apart from sign_in_sign_ups: recoveries run out, a sign-in still answers', async () => {
    const user = await confirmedUser('limits');
    created.push(user.id);
    // /recover takes from RATE_LIMIT_OTP (config.toml sign_in_sign_ups, 30 per 5 min; locally
    // 30 an hour); an unknown address gets no mail.
    let refused: Answer | null = null;
    for (let i = 0; i < 31 && !refused; i++) {
      const res = await call('/auth/v1/recover', { body: { email: email('nobody') } });
      if (res.status === 429) refused = res;
      else expect(res.status, `recovery ${i + 1}`).toBe(200);
    }
    expect(refused, 'the recovery limit was reached').not.toBeNull();
    expectAuthError(refused!, 429, 'over_request_rate_limit');
    // Sign-ins take from the token limiter (token_refresh), which recoveries leave alone.
    const signedIn = await signIn(user.email);
    expect(signedIn.status).toBe(200);
  });
});
