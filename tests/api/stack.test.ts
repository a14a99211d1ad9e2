/**
 * The local stack itself: the gateway (keys, CORS, proxy, open routes), PostgREST with RLS and
 * JWTs, the mailbox and its relay, migrations, restarts and ports. Runs against the run's stack
 * (PGlite, or PostgreSQL with KIRAA_TEST_DB=postgres) and against stacks of its own on the same
 * engine.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PATHS } from '../../supabase/local/config.ts';
import { ANON_WRITES } from '../../supabase/local/gateway/gateway-guards.ts';
import { signJwt } from '../../supabase/local/jwt.ts';
import { migrate, MigrationError } from '../../supabase/local/postgres/migrate.ts';
import { freePort, Postgrest } from '../../supabase/local/postgrest/postgrest.ts';
import {
  anonClient,
  serviceClient,
  sql,
  testStack,
  uniqueEmail,
  waitForMail,
  waitForSchemaCache,
} from '../support/clients.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** Retries `fn` until it stops throwing (schema cache reloads, restarts, the mail relay). */
async function eventually<T>(fn: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function userToken(sub: string, overrides: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { role: 'authenticated', aud: 'authenticated', sub, iat: now, exp: now + 600, ...overrides },
    testStack().jwtSecret,
  );
}

function rest(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const { key = testStack().anonKey, headers, ...rest } = init;
  return fetch(`${testStack().apiUrl}/rest/v1/${path}`, {
    ...rest,
    headers: { ...(key ? { apikey: key } : {}), ...(headers as Record<string, string>) },
  });
}

async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

describe('REST through the gateway, with RLS', () => {
  const table = `stack_probe_${randomUUID().slice(0, 8)}`;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    await sql(`
      create table public.${table} (
        id uuid primary key default gen_random_uuid(),
        owner uuid default auth.uid(),
        note text not null
      );
      alter table public.${table} enable row level security;
      create policy "Anyone reads public probes" on public.${table}
        for select to anon, authenticated using (owner is null);
      create policy "Owners read their probes" on public.${table}
        for select to authenticated using (owner = auth.uid());
      create policy "Owners add probes" on public.${table}
        for insert to authenticated with check (owner = auth.uid());
      revoke all on public.${table} from anon, authenticated;
      grant select on public.${table} to anon;
      grant select, insert on public.${table} to authenticated;
      grant all on public.${table} to service_role;
      create or replace function public.${table}_headers() returns json
        language sql stable as $$ select current_setting('request.headers', true)::json $$;
      grant execute on function public.${table}_headers() to anon;
    `);
    await sql(`insert into public.${table} (owner, note) values (null, 'public'), ($1, 'alice')`, [
      alice,
    ]);
    // DDL reaches PostgREST's schema cache by itself (event triggers): wait for it.
    await waitForSchemaCache([table, `rpc/${table}_headers`]);
  });

  afterAll(async () => {
    await sql(`drop table public.${table}; drop function public.${table}_headers()`);
  });

  it('lets a visitor read only what the policies allow', async () => {
    const { data, error } = await anonClient().from(table).select('note');
    expect(error).toBeNull();
    expect(data).toEqual([{ note: 'public' }]);
  });

  it('refuses a visitor write with PostgREST’s RLS error', async () => {
    const { error, status } = await anonClient().from(table).insert({ note: 'anon' });
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });

  it('gives a signed-in user their rows and lets them write their own', async () => {
    const headers = { Authorization: `Bearer ${userToken(alice)}` };
    const read = await fetch(`${testStack().apiUrl}/rest/v1/${table}?select=note&order=note`, {
      headers: { apikey: testStack().anonKey, ...headers },
    });
    expect(await read.json()).toEqual([{ note: 'alice' }, { note: 'public' }]);

    const insert = await fetch(`${testStack().apiUrl}/rest/v1/${table}`, {
      method: 'POST',
      headers: {
        apikey: testStack().anonKey,
        ...headers,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
      body: JSON.stringify({ note: 'written by alice' }),
    });
    expect(insert.status).toBe(201);
    expect(await insert.json()).toEqual([
      expect.objectContaining({ owner: alice, note: 'written by alice' }),
    ]);
  });

  it('refuses a row written for someone else', async () => {
    const res = await rest(table, {
      method: 'POST',
      headers: { Authorization: `Bearer ${userToken(bob)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'forged', owner: alice }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('42501');
  });

  it('uses the API key as the bearer token when there is no Authorization header', async () => {
    // The service-role key bypasses RLS: all rows, though no Authorization header was sent.
    const res = await rest(`${table}?select=note&order=note`, { key: testStack().serviceRoleKey });
    expect(res.status).toBe(200);
    expect((await res.json()).map((row: { note: string }) => row.note)).toEqual([
      'alice',
      'public',
      'written by alice',
    ]);
    const service = await serviceClient()
      .from(table)
      .select('note', { count: 'exact', head: true });
    expect(service.count).toBe(3);
  });

  it('accepts the API key as ?apikey= and keeps it out of the query PostgREST sees', async () => {
    const res = await fetch(
      `${testStack().apiUrl}/rest/v1/${table}?select=note&apikey=${testStack().anonKey}`,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ note: 'public' }]);
  });

  it('passes status, headers and body through unchanged', async () => {
    const res = await rest(`${table}?select=note`, {
      key: testStack().serviceRoleKey,
      headers: { prefer: 'count=exact', range: '0-0' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('0-0/3');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toHaveLength(1);

    const missing = await rest('no_such_table');
    expect(missing.status).toBe(404);
  });

  it('tells PostgREST who the client is (cf-connecting-ip, X-Forwarded-For, X-Real-IP)', async () => {
    const res = await rest(`rpc/${table}_headers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '198.51.100.1, 203.0.113.7',
        'cf-connecting-ip': '198.51.100.2',
      },
      body: '{}',
    });
    const headers = await res.json();
    // The harness trusts X-Forwarded-For (tests simulate several clients), as if a proxy in
    // front had appended the client's address: its rightmost entry is the client. See the own
    // stack below for the default, which appends the socket's address.
    expect(headers['cf-connecting-ip']).toBe('203.0.113.7');
    expect(headers['x-forwarded-for']).toBe('198.51.100.1, 203.0.113.7');
    expect(headers['x-real-ip']).toBe('203.0.113.7');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers.apikey).toBeUndefined();
  });

  it('refuses an expired JWT', async () => {
    // PostgREST allows 30 s of clock skew.
    const exp = Math.floor(Date.now() / 1000) - 60;
    const res = await rest(`${table}?select=note`, {
      headers: { Authorization: `Bearer ${userToken(alice, { exp })}` },
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.code).toBe('PGRST301');
    expect(body.message).toMatch(/expired/i);
  });

  it('refuses a tampered JWT', async () => {
    const [header, , signature] = userToken(alice).split('.');
    const forged = Buffer.from(JSON.stringify({ role: 'service_role', sub: alice })).toString(
      'base64url',
    );
    const res = await rest(`${table}?select=note`, {
      headers: { Authorization: `Bearer ${header}.${forged}.${signature}` },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('PGRST301');

    const otherSecret = signJwt(
      { role: 'service_role' },
      'a-different-secret-of-at-least-32-chars!!',
    );
    const res2 = await rest(`${table}?select=note`, {
      headers: { Authorization: `Bearer ${otherSecret}` },
    });
    expect(res2.status).toBe(401);
  });
});

describe('the gateway under abuse (against the real PostgREST)', () => {
  it('answers 400 for a NUL byte in the path, where PostgREST’s echo made a 502', async () => {
    const res = await rest('cars%00?select=id');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_url' });
  });

  it('answers a filter PostgREST echoes three times longer (a 502 before), and 414 past 8 KB', async () => {
    const res = await rest(`cars?select=id&slug=in.(${','.repeat(7800)})`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    const tooLong = await rest(`cars?select=id&slug=in.(${','.repeat(8200)})`);
    expect(tooLong.status).toBe(414);
  });

  it('answers 400 for a query that is not UTF-8, where PostgREST answers 500', async () => {
    const res = await rest('cars?select=id&slug=eq.%FF');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_url' });
  });

  it('answers GET on a function that writes with 405 and Allow: POST, before running it', async () => {
    const res = await rest('rpc/find_guest_booking?reference=KR-AAAA-AAAA&contact=x');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ message: 'method_not_allowed' });
    const read = await rest(
      `rpc/car_busy_periods?from=${encodeURIComponent('2030-01-01T00:00:00Z')}&to=${encodeURIComponent('2030-01-02T00:00:00Z')}`,
    );
    expect(read.status).toBe(200);
  });

  it('refuses bodies over 1 MB on /rest/v1, /auth/v1 and /functions/v1 with 413 JSON', async () => {
    const body = JSON.stringify({ p: { additional_requests: 'x'.repeat(1024 * 1024) } });
    for (const path of ['rest/v1/rpc/quote_booking', 'auth/v1/signup', 'functions/v1/send-mail']) {
      const res = await fetch(`${testStack().apiUrl}/${path}`, {
        method: 'POST',
        headers: {
          apikey: testStack().anonKey,
          authorization: `Bearer ${testStack().serviceRoleKey}`,
          'content-type': 'application/json',
        },
        body,
      });
      expect(res.status, path).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'request_too_large' });
    }
  });
});

describe('a body nested thousands deep', () => {
  const deep = (depth: number) => `{"p":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  it('is refused by the gateway on /rest/v1, /auth/v1 and /functions/v1 before anything reads it', async () => {
    for (const path of ['rest/v1/rpc/quote_booking', 'auth/v1/signup', 'functions/v1/send-mail']) {
      const res = await fetch(`${testStack().apiUrl}/${path}`, {
        method: 'POST',
        headers: { apikey: testStack().anonKey, 'content-type': 'application/json' },
        body: deep(7500),
      });
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(await res.json()), path).toMatch(/json_too_deep|bad_json/);
    }
  });

  it('sent to PostgREST itself, gets an error and leaves the database answering', async () => {
    const res = await fetch(`${testStack().postgrestUrl}/rpc/quote_booking`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${testStack().anonKey}`,
        'content-type': 'application/json',
      },
      body: deep(7500),
      signal: AbortSignal.timeout(10_000),
    });
    // An error (PGlite: the statement's error, then the database restarts and PostgREST answers
    // 503 while it reconnects; PostgreSQL: 54001), never a hang…
    expect(res.ok).toBe(false);
    // …and REST, auth and SQL all answer afterwards.
    const cars = await fetch(`${testStack().apiUrl}/rest/v1/cars?select=id&limit=1`, {
      headers: { apikey: testStack().anonKey },
      signal: AbortSignal.timeout(10_000),
    });
    expect(cars.status).toBe(200);
    const { error } = await anonClient().auth.signUp({
      email: uniqueEmail('after-deep'),
      password: 'Test-pass1!',
      options: {
        data: { name: 'Amel K', phone: '+213555000111', age: 30, address: '1 rue Didouche, Alger' },
      },
    });
    expect(error).toBeNull();
    // …and it writes as before (an engine left inconsistent fails here: "bad buffer ID").
    await sql('create table public.deep_probe (n int)');
    await sql('insert into public.deep_probe values (1), (2)');
    expect(await sql('select count(*)::int as n from public.deep_probe')).toEqual([{ n: 2 }]);
    await sql('drop table public.deep_probe');
  });
});

describe('API keys', () => {
  it('refuses a request without an API key', async () => {
    for (const path of ['/rest/v1/cars', '/auth/v1/user', '/storage/v1/bucket']) {
      const res = await fetch(`${testStack().apiUrl}${path}`);
      expect(res.status, path).toBe(401);
      expect(await res.json()).toEqual({ message: 'No API key found in request' });
    }
  });

  it('refuses a wrong API key, even a validly signed JWT', async () => {
    const signed = signJwt({ role: 'anon', iss: 'supabase-demo' }, testStack().jwtSecret);
    for (const key of ['nope', signed]) {
      const res = await rest('cars', { key });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Invalid API key' });
    }
  });

  it('leaves mail links, public and signed storage URLs, the mailbox and /health open', async () => {
    const { apiUrl } = testStack();
    const open = [
      '/health',
      '/mailbox',
      '/mailbox/api/messages',
      '/auth/v1/verify?token=x&type=recovery',
      '/storage/v1/object/public/cars/none.jpg',
      '/storage/v1/object/sign/licenses/none.pdf?token=x',
    ];
    for (const path of open) {
      const res = await fetch(`${apiUrl}${path}`, { redirect: 'manual' });
      expect(res.status, path).not.toBe(401);
    }
    // Only GET is open on those routes.
    const post = await fetch(`${apiUrl}/auth/v1/verify`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(401);
  });

  it('answers unknown routes like Kong', async () => {
    const res = await fetch(`${testStack().apiUrl}/functions/v1/hello`, {
      headers: { apikey: testStack().anonKey },
    });
    expect(res.status).toBe(404);
  });
});

describe('CORS', () => {
  it('answers a preflight from the app with Supabase’s headers, without an API key', async () => {
    const res = await fetch(`${testStack().apiUrl}/rest/v1/cars`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4173',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers':
          'authorization,apikey,content-type,x-client-info,prefer,x-supabase-api-version',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    const allowed = res.headers.get('access-control-allow-headers')?.split(/,\s*/) ?? [];
    for (const header of [
      'authorization',
      'apikey',
      'content-type',
      'x-client-info',
      'prefer',
      'x-supabase-api-version',
      'x-upsert',
      'range',
    ]) {
      expect(allowed).toContain(header);
    }
  });

  it('allows localhost dev origins and refuses others', async () => {
    const preflight = (origin: string) =>
      fetch(`${testStack().apiUrl}/auth/v1/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    expect(
      (await preflight('http://localhost:5173')).headers.get('access-control-allow-origin'),
    ).toBe('http://localhost:5173');
    expect(
      (await preflight('http://127.0.0.1:9323')).headers.get('access-control-allow-origin'),
    ).toBe('http://127.0.0.1:9323');
    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('exposes the headers supabase-js reads on real responses', async () => {
    const res = await rest('cars?select=id&limit=1', {
      headers: { origin: 'http://localhost:4173', prefer: 'count=exact' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');
    expect(res.headers.get('access-control-expose-headers')).toContain('content-range');
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });
});

describe('the dev mailbox', () => {
  it('delivers what the database queues in internal.mail_outbox, once', async () => {
    const to = uniqueEmail('relay');
    const [row] = await sql<{ id: string }>(
      `insert into internal.mail_outbox (to_email, subject, body_text)
       values ($1, 'Votre réservation', 'Bonjour, voyez https://kiraa.example/guest-booking?ref=KR-1 .')
       returning id`,
      [to],
    );
    const mail = await waitForMail(to);
    expect(mail.subject).toBe('Votre réservation');
    expect(mail.text).toContain('https://kiraa.example/guest-booking?ref=KR-1');
    // The relay marks the row sent after the mailbox has taken the mail: on a loaded machine the
    // mail can be read before that update commits.
    await expect
      .poll(async () => {
        const [sent] = await sql<{ sent_at: Date | null }>(
          'select sent_at from internal.mail_outbox where id = $1',
          [row!.id],
        );
        return sent?.sent_at ?? null;
      })
      .toBeInstanceOf(Date);

    // The next relay rounds do not send it again.
    await new Promise((r) => setTimeout(r, 2500));
    const res = await fetch(
      `${testStack().mailboxUrl}/api/messages?to=${encodeURIComponent(to.toUpperCase())}`,
    );
    expect(await res.json()).toHaveLength(1);

    // Readable in a browser, newest first, links clickable, text escaped.
    const list = await (await fetch(testStack().mailboxUrl)).text();
    expect(list).toContain('Votre réservation');
    expect(list).toContain(`/mailbox/${mail.id}`);
    const page = await fetch(`${testStack().mailboxUrl}/${mail.id}`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain(
      '<a href="https://kiraa.example/guest-booking?ref=KR-1" target="_blank" rel="noopener">',
    );
  });
});

describe('migrations', () => {
  it('fails loudly with the file, the line and Postgres’ message, and applies nothing of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiraa-migrations-'));
    try {
      writeFileSync(
        join(dir, '29990101000000_broken.sql'),
        'create table public.never_created (id int);\n\nselect * from public.no_such_table;\n',
      );
      const error = await migrate({
        url: testStack().dbUrl,
        bootstrapFile: PATHS.bootstrap,
        migrationsDir: dir,
        seedFile: join(dir, 'none.sql'),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(
        /29990101000000_broken\.sql:3: relation "public\.no_such_table" does not exist/,
      );
      expect(await sql("select to_regclass('public.never_created') as t")).toEqual([{ t: null }]);
      expect(
        await sql(
          "select count(*)::int as n from supabase_migrations.schema_migrations where version = '29990101000000'",
        ),
      ).toEqual([{ n: 0 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recorded every migration file like the Supabase CLI', async () => {
    const files = readdirSync(PATHS.migrations).filter((f) => f.endsWith('.sql'));
    const rows = await sql<{ version: string; name: string }>(
      'select version, name from supabase_migrations.schema_migrations order by version',
    );
    expect(rows.map((r) => `${r.version}_${r.name}.sql`)).toEqual(files.sort());
  });
});

// PGlite is one Postgres session shared by every socket connection; the socket server must keep
// each client's statements and transactions apart. On PostgreSQL each connection is its own
// session, so this is a PGlite-only property.
describe.skipIf(testStack().engine !== 'pglite')('the PGlite socket', () => {
  it('keeps concurrent clients’ statements and transactions apart', async () => {
    const clients = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = new pg.Client({ connectionString: testStack().dbUrl });
        await client.connect();
        return client;
      }),
    );
    const [a, b, c] = clients as [pg.Client, pg.Client, pg.Client];
    try {
      await a.query(
        'create schema stack_socket_test; create table stack_socket_test.probe (n int)',
      );
      const transaction = (async () => {
        for (let round = 0; round < 20; round++) {
          await a.query('begin');
          await a.query('insert into stack_socket_test.probe values ($1)', [round]);
          await new Promise((r) => setTimeout(r, 2));
          const { rows } = await a.query<{ n: number }>(
            'select count(*)::int as n from stack_socket_test.probe',
          );
          expect(rows[0]?.n).toBe(round + 1);
          await a.query('commit');
        }
      })();
      // Extended-protocol queries (unnamed statements) from two other clients meanwhile.
      const queries = [b, c].map(async (client, k) => {
        for (let i = 0; i < 60; i++) {
          const { rows } = await client.query<{ v: string }>('select $1::text || $2::text as v', [
            `${k}-`,
            String(i),
          ]);
          expect(rows[0]?.v).toBe(`${k}-${i}`);
        }
      });
      await Promise.all([transaction, ...queries]);
      expect(
        (await b.query('select count(*)::int as n from stack_socket_test.probe')).rows,
      ).toEqual([{ n: 20 }]);
    } finally {
      await b.query('drop schema if exists stack_socket_test cascade');
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it('rolls back what a client that went away left open', async () => {
    const quitter = new pg.Client({ connectionString: testStack().dbUrl });
    quitter.on('error', () => {});
    await quitter.connect();
    await quitter.query('begin');
    await quitter.query('create table public.socket_abandoned (n int)');
    // Gone without COMMIT, like a crashed process.
    (
      quitter as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();

    const next = new pg.Client({ connectionString: testStack().dbUrl });
    await next.connect();
    try {
      const { rows } = await next.query("select to_regclass('public.socket_abandoned') as t");
      expect(rows).toEqual([{ t: null }]);
    } finally {
      await next.end();
    }
  });
});

describe('ports', () => {
  it('names a taken port and what to do', async () => {
    const { port, server } = await takenPort();
    try {
      await expect(startTestStack({ apiPort: port })).rejects.toThrow(
        `Port ${port} (the API gateway) is already in use. Stop the program using it (another "npm start"?) or pick another port with KIRAA_API_PORT=<port>.`,
      );
    } finally {
      server.close();
    }
  });

  it('prints one clear line, not a stack trace, from npm run stack', async () => {
    const { port, server } = await takenPort();
    const dir = mkdtempSync(join(tmpdir(), 'kiraa-cli-'));
    try {
      const cli = runCli(dir, { KIRAA_API_PORT: String(port) });
      const code = await cli.exited;
      expect(code).toBe(1);
      const lines = cli.stderr().trim().split('\n').filter(Boolean);
      expect(lines).toEqual([
        `Port ${port} (the API gateway) is already in use. Stop the program using it (another "npm start"?) or pick another port with KIRAA_API_PORT=<port>.`,
      ]);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `npm run stack` in a child process, on free ports and a data directory of its own. */
function runCli(dataDir: string, env: Record<string, string> = {}) {
  // The CLI runs on PGlite whatever the run's engine (DATABASE_URL is cleared): this checks the
  // process's life cycle, which does not depend on the database.
  const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts', 'stack'], {
    env: {
      ...process.env,
      KIRAA_API_PORT: '0',
      KIRAA_DB_PORT: '0',
      KIRAA_DATA_DIR: dataDir,
      KIRAA_ENV_FILE: join(dataDir, '.env.local'),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    ready: () =>
      eventually(async () => {
        if (!stdout.includes('Press Ctrl-C to stop.'))
          throw new Error(`not ready:\n${stdout}${stderr}`);
      }, 120_000),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run stack, the process', () => {
  it('leaves no PostgREST behind, even when killed, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiraa-cli-'));
    try {
      const first = runCli(dir);
      await first.ready();
      const envLocal = readFileSync(join(dir, '.env.local'), 'utf8');
      expect(envLocal).toMatch(
        /^VITE_SUPABASE_URL=http:\/\/localhost:\d+\nVITE_SUPABASE_ANON_KEY=ey.+\nVITE_VAPID_PUBLIC_KEY=B[\w-]{86}\n(#.*\n)?SUPABASE_SERVICE_ROLE_KEY=ey/m,
      );
      // The Web Push keys the first start generated, printed and written down.
      const vapid = /^VAPID_PUBLIC_KEY=(B[\w-]{86})\nVAPID_PRIVATE_KEY=([\w-]{43})$/m.exec(
        envLocal,
      );
      expect(vapid).not.toBeNull();
      expect(first.stdout()).toContain(vapid![1]);
      expect(first.stdout()).toMatch(/Mailbox\s+http:\/\/localhost:\d+\/mailbox/);
      expect(first.stdout()).toMatch(/Push inbox\s+http:\/\/localhost:\d+\/push/);
      expect(first.stdout()).toContain('client@kiraa.dz / Kiraa2026! (customer)');
      const postgrest = Number(readFileSync(join(dir, 'postgrest.pid'), 'utf8'));
      expect(alive(postgrest)).toBe(true);
      // No exit handler runs on SIGKILL: the watchdog ends PostgREST.
      first.child.kill('SIGKILL');
      await first.exited;
      await eventually(async () => {
        if (alive(postgrest)) throw new Error('PostgREST still runs');
      }, 5000);

      const second = runCli(dir);
      await second.ready();
      expect(second.stdout()).not.toContain('applied supabase/migrations');
      // The same keys again: the browsers' subscriptions stay valid across restarts.
      expect(readFileSync(join(dir, '.env.local'), 'utf8')).toContain(vapid![0]);
      const postgrest2 = Number(readFileSync(join(dir, 'postgrest.pid'), 'utf8'));
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(alive(postgrest2)).toBe(false);
      // A clean stop releases the data directory.
      expect(existsSync(join(dir, 'stack.pid'))).toBe(false);
      expect(second.stderr()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('a stack of its own: restarts, data, PostgREST supervision', () => {
  const engine = testStack().engine;
  let dir: string;
  let cluster: PostgresCluster | null = null;
  let stack: TestStack | null = null;

  const own = () => {
    if (!stack) throw new Error('no stack');
    return stack;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kiraa-own-'));
    if (engine === 'postgres') cluster = await startPostgres();
    stack = await startTestStack({
      db: engine,
      dataDir: dir,
      databaseUrl: cluster?.url,
      trustProxyHeaders: false,
      // The limit `npm start` runs with, not the test stacks' relaxed one.
      anonWriteLimit: ANON_WRITES,
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrated and seeded a fresh database', () => {
    expect(own().migrations.fresh).toBe(true);
    expect(own().migrations.applied.length).toBe(
      readdirSync(PATHS.migrations).filter((f) => f.endsWith('.sql')).length,
    );
    expect(own().migrations.seeded).toBe(true);
  });

  it('runs handler queries as PostgREST would for the given claims', async () => {
    const sub = randomUUID();
    const seen = await own().db.asClaims(
      { role: 'authenticated', sub, email: 'a@kiraa.test' },
      (q) =>
        q.query<{ uid: string; role: string; who: string; email: string }>(
          'select auth.uid()::text as uid, auth.role() as role, current_user as who, auth.email() as email',
        ),
    );
    expect(seen.rows).toEqual([
      { uid: sub, role: 'authenticated', who: 'authenticated', email: 'a@kiraa.test' },
    ]);
    const anon = await own().db.asClaims(null, (q) =>
      q.query<{ who: string; uid: string | null }>('select current_user as who, auth.uid() as uid'),
    );
    expect(anon.rows).toEqual([{ who: 'anon', uid: null }]);
    // Settings are local to the transaction: the pool's next query is the superuser again.
    const after = await own().db.query<{ who: string }>('select current_user as who');
    expect(after.rows[0]?.who).not.toBe('anon');
    await expect(own().db.asClaims({ role: 'postgres' }, async () => 1)).rejects.toThrow(
      /Refusing to run as role/,
    );
  });

  it('appends to a client-supplied X-Forwarded-For and overwrites cf-connecting-ip by default', async () => {
    await own().db.query(
      `create or replace function public.own_probe_headers() returns json language sql stable
         as $$ select current_setting('request.headers', true)::json $$;
       grant execute on function public.own_probe_headers() to anon;`,
    );
    const headers = await eventually(async () => {
      const r = await fetch(`${own().apiUrl}/rest/v1/rpc/own_probe_headers`, {
        method: 'POST',
        headers: {
          apikey: own().anonKey,
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.9',
          'cf-connecting-ip': '203.0.113.10',
        },
        body: '{}',
      });
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      return r.json();
    });
    // As on hosted Supabase: the connecting address is appended to what the client sent (only
    // the rightmost entry is the platform's), and cf-connecting-ip is the connecting address
    // whatever the client sent.
    expect(headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(headers['cf-connecting-ip']).toBe('127.0.0.1');
    expect(headers['x-real-ip']).toBe('127.0.0.1');
  });

  it('limits anonymous writes per address at 10 a second after a burst of 100, not users', async () => {
    const quote = (headers: Record<string, string> = {}) =>
      fetch(`${own().apiUrl}/rest/v1/rpc/car_busy_periods`, {
        method: 'POST',
        headers: { apikey: own().anonKey, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' }),
      });
    // A token bucket: 100 at once, then 10 a second. Counted against the time the bursts took, so
    // a slow machine (which spreads a burst over seconds) cannot fail it; bursts go on until one
    // is refused.
    const started = Date.now();
    const responses: Response[] = [];
    let refused: Response[] = [];
    for (let burst = 0; burst < 5 && refused.length === 0; burst += 1) {
      responses.push(...(await Promise.all(Array.from({ length: 130 }, () => quote()))));
      refused = responses.filter((res) => res.status === 429);
    }
    const seconds = (Date.now() - started) / 1000;
    const admitted = responses.length - refused.length;
    expect(admitted).toBeGreaterThanOrEqual(100);
    expect(admitted).toBeLessThanOrEqual(100 + Math.ceil(10 * seconds) + 1);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(await refused[0]!.json()).toMatchObject({ code: 'over_request_rate_limit' });
    // A signed-in customer behind the same address is not limited by it.
    const user = await quote({ authorization: `Bearer ${userToken(randomUUID())}` });
    expect(user.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await quote()).status).toBe(200);
  });

  it('starts again on the same data: no migration, no seed, the data kept', async () => {
    await own().db.query(`create table public.own_marker (note text)`);
    await own().db.query(`insert into public.own_marker values ('kept')`);
    const firstPid = own().postgrest.pid;
    await own().stop();
    expect(() => process.kill(firstPid!, 0)).toThrow();

    const started = Date.now();
    stack = await startTestStack({
      db: engine,
      dataDir: dir,
      databaseUrl: cluster?.url,
      trustProxyHeaders: false,
    });
    const secondStart = Date.now() - started;
    expect(own().migrations).toEqual({ fresh: false, applied: [], seeded: false });
    expect((await own().db.query('select note from public.own_marker')).rows).toEqual([
      { note: 'kept' },
    ]);
    const seeds = await own().db.query<{ n: number }>(
      'select count(*)::int as n from supabase_migrations.seed_files',
    );
    expect(seeds.rows).toEqual([{ n: 1 }]);
    // Seeded rows are there once, not twice.
    const accounts = await own().db.query<{ n: number }>(
      "select count(*)::int as n from auth.users where email in ('client@kiraa.dz', 'admin@kiraa.dz')",
    );
    expect(accounts.rows).toEqual([{ n: 2 }]);
    console.info(`second start on ${engine}: ${secondStart} ms`);
  });

  it('refuses a second stack on a data directory in use', async () => {
    await expect(
      startTestStack({ db: engine, dataDir: dir, databaseUrl: cluster?.url }),
    ).rejects.toThrow(
      `The data directory ${dir} is in use by another local stack (process ${process.pid}).`,
    );
  });

  it('starts PostgREST on other ports when its port is taken between the probe and the bind', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as { port: number }).port;
    const offered = [takenPort];
    const logs: string[] = [];
    const extra = new Postgrest({
      dbUri: own().dbUrl,
      jwtSecret: own().jwtSecret,
      api: own().settings.api,
      pglite: own().engine === 'pglite',
      log: (line) => logs.push(line),
      onFatal: () => {},
      pickPort: async (host) => offered.shift() ?? freePort(host),
    });
    try {
      await extra.start();
      expect(extra.port).not.toBe(takenPort);
      expect(
        logs.some((line) => line.includes(`port ${takenPort}`) && line.includes('was taken')),
      ).toBe(true);
      const res = await fetch(`http://127.0.0.1:${extra.port}/cars?select=id&limit=1`);
      expect(res.status).toBe(200);
    } finally {
      await extra.stop();
      taken.close();
    }
  });

  it('restarts PostgREST when it dies and serves again', async () => {
    const before = own().postgrest.pid!;
    process.kill(before, 'SIGKILL');
    const res = await eventually(async () => {
      const r = await fetch(`${own().apiUrl}/rest/v1/cars?select=id&limit=1`, {
        headers: { apikey: own().anonKey },
      });
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      return r;
    });
    expect(await res.json()).toHaveLength(1);
    expect(own().postgrest.pid).not.toBe(before);
    expect(own().logs.some((line) => line.includes('PostgREST exited unexpectedly'))).toBe(true);
  });

  it('gives up loudly after repeated crashes, and the gateway answers 502', async () => {
    for (let i = 0; i < 6 && !own().logs.some((line) => line.includes('giving up')); i++) {
      await own().postgrest.ready();
      const pid = own().postgrest.pid;
      if (pid) process.kill(pid, 'SIGKILL');
      await eventually(async () => {
        if (own().postgrest.pid === pid && !own().logs.some((line) => line.includes('giving up'))) {
          throw new Error('not restarted yet');
        }
      });
    }
    expect(
      own().logs.some((line) => /PostgREST crashed \d+ times within 30 s .*giving up/.test(line)),
    ).toBe(true);
    const res = await fetch(`${own().apiUrl}/rest/v1/cars`, { headers: { apikey: own().anonKey } });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      message: 'An invalid response was received from the upstream server',
    });
  }, 60_000);

  it('filters mail by recipient and lets tests clear it', async () => {
    await own().mailbox.send({ to: 'Someone@Kiraa.test', subject: 'Hello', text: 'Body' });
    const listed = await (
      await fetch(`${own().mailboxUrl}/api/messages?to=someone@kiraa.test`)
    ).json();
    expect(listed).toEqual([
      expect.objectContaining({ to: 'Someone@Kiraa.test', subject: 'Hello' }),
    ]);
    const cleared = await fetch(`${own().mailboxUrl}/api/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await (await fetch(`${own().mailboxUrl}/api/messages`)).json()).toEqual([]);
  });
});
