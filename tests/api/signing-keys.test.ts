/**
 * Asymmetric JWT signing (docs/auth.md, "Signing keys") on a stack of its own (a rotation must
 * not disturb other suites): access tokens ES256 with a `kid`, the JWKS at
 * /auth/v1/.well-known/jwks.json, PostgREST, storage and auth verifying with it (and the legacy
 * secret for the anon and service-role keys), supabase-js `getClaims()`, and the rotation steps
 * through `npm run keys`' functions, as a running stack follows them.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { sessionLevel } from '../../src/infra/claims.ts';
import { dataPaths } from '../../supabase/local/config.ts';
import { decodeJwt, signJwt, signJwtEs256 } from '../../supabase/local/jwt.ts';
import { readKeyFile, revoke, rotate, writeKeyFile } from '../../supabase/local/signing-keys.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { nodeClient, signUpUser } from '../support/supabase.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

type Jwks = { keys: Array<Record<string, unknown>> };

async function jwks(): Promise<{ body: Jwks; cacheControl: string | null }> {
  const res = await fetch(`${stack.apiUrl}/auth/v1/.well-known/jwks.json`, {
    headers: { apikey: stack.anonKey },
  });
  expect(res.status).toBe(200);
  return { body: (await res.json()) as Jwks, cacheControl: res.headers.get('cache-control') };
}

function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
}

/** What each API answers for `token`: the status (and storage's and auth's error code). */
async function answers(token: string, userId: string) {
  const headers = { apikey: stack.anonKey, authorization: `Bearer ${token}` };
  const rest = await fetch(`${stack.apiUrl}/rest/v1/profiles?select=id&id=eq.${userId}`, {
    headers,
  });
  const storage = await fetch(`${stack.apiUrl}/storage/v1/bucket`, { headers });
  const auth = await fetch(`${stack.apiUrl}/auth/v1/user`, { headers });
  return {
    rest: rest.status,
    restRows: rest.status === 200 ? ((await rest.json()) as unknown[]).length : -1,
    storage: storage.status,
    storageCode: storage.status === 200 ? null : ((await storage.json()) as { code?: string }).code,
    auth: auth.status,
    authCode:
      auth.status === 200 ? null : ((await auth.json()) as { error_code?: string }).error_code,
  };
}

const ACCEPTED = { rest: 200, restRows: 1, storage: 200, auth: 200 };
/** PostgREST 401; storage-api 400 with its AccessDenied body; GoTrue 403 `bad_jwt`. */
const REFUSED = {
  rest: 401,
  storage: 400,
  storageCode: 'AccessDenied',
  auth: 403,
  authCode: 'bad_jwt',
};

describe('signing keys', () => {
  it('serves the public key in the JWKS and signs access tokens ES256 with its kid', async () => {
    const { body, cacheControl } = await jwks();
    expect(body.keys).toHaveLength(1);
    const [key] = body.keys;
    expect(key).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      y: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      kid: expect.any(String),
      alg: 'ES256',
      use: 'sig',
      key_ops: ['verify'],
    });
    expect(cacheControl).toBe('public, max-age=600');

    const { session, user } = await signUpUser(stack);
    expect(headerOf(session.access_token)).toEqual({ alg: 'ES256', kid: key!.kid, typ: 'JWT' });
    expect(await answers(session.access_token, user.id)).toMatchObject(ACCEPTED);
    // The anon and service-role keys stay HS256 with the legacy secret, as on Supabase.
    expect(headerOf(stack.anonKey)).toMatchObject({ alg: 'HS256' });
    const service = nodeClient(stack.apiUrl, stack.serviceRoleKey);
    const { data, error } = await service.from('profiles').select('id').eq('id', user.id);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });

  it('refuses a token signed by a key that is not in the JWKS, on every API', async () => {
    const { session, user } = await signUpUser(stack);
    const claims = decodeJwt<Record<string, unknown>>(session.access_token);
    const realKid = String(headerOf(session.access_token).kid);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const { body } = await jwks();
    const publicJwk = JSON.stringify(body.keys[0]);
    const [h, p] = session.access_token.split('.');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const forged = {
      unknownKid: signJwtEs256(claims, { kid: randomUUID(), privateKey: other }),
      otherKeyRealKid: signJwtEs256(claims, { kid: realKid, privateKey: other }),
      noKid: (() => {
        const t = signJwtEs256(claims, { kid: realKid, privateKey: other }).split('.');
        const bare = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT' })).toString(
          'base64url',
        );
        return `${bare}.${t[1]}.${t[2]}`;
      })(),
      algNone: `${none}.${p}.${Buffer.from('x').toString('base64url')}`,
      hs256WithPublicKey: signJwt(claims, publicJwk),
      hs256WithOtherSecret: signJwt(claims, 'another-secret-that-is-at-least-32-characters'),
    };
    expect(h).toBeTruthy();
    for (const [name, token] of Object.entries(forged)) {
      expect(await answers(token, user.id), name).toMatchObject(REFUSED);
    }
    // The real token still works (nothing above changed the key set).
    expect(await answers(session.access_token, user.id)).toMatchObject(ACCEPTED);
  });

  it('lets supabase-js getClaims() verify the token with the JWKS, and refuse a forged one', async () => {
    const { client, session } = await signUpUser(stack);
    const counting = nodeClient(stack.apiUrl, stack.anonKey);
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.header).toMatchObject({ alg: 'ES256', kid: headerOf(session.access_token).kid });
    expect(data?.claims).toMatchObject({
      sub: session.user.id,
      role: 'authenticated',
      aal: 'aal1',
    });

    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const claims = decodeJwt<Record<string, unknown>>(session.access_token);
    const kid = String(headerOf(session.access_token).kid);
    const forged = await counting.auth.getClaims(signJwtEs256(claims, { kid, privateKey: other }));
    expect(forged.data).toBeNull();
    expect(forged.error?.message).toMatch(/Invalid JWT signature/);
  });

  it('reads the app level from verified claims, the JWKS fetched once per 10 minutes', async () => {
    const jwksCalls: string[] = [];
    // auth-js keeps the JWKS per storage key, for the whole process: a key of this test's own.
    const app = createClient(stack.apiUrl, stack.anonKey, {
      auth: {
        persistSession: false,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        storageKey: `jwks-${randomUUID()}`,
      },
      global: {
        fetch: async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.endsWith('/.well-known/jwks.json')) {
            jwksCalls.push(url);
          }
          return fetch(input, init);
        },
      },
      realtime: { transport: class {} as never },
    });
    const { email, password, user } = await signUpUser(stack);
    const signedIn = await app.auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    await expect(sessionLevel(app.auth)).resolves.toEqual({
      aal: 'aal1',
      role: 'user',
      verified: true,
    });
    await sessionLevel(app.auth);
    expect(jwksCalls).toHaveLength(1);
    // Fetched again only once the 10 minutes have passed (auth-js JWKS_TTL).
    const start = Date.now();
    const clock = vi.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(start + 9 * 60_000);
      await expect(sessionLevel(app.auth)).resolves.toMatchObject({ verified: true });
      expect(jwksCalls).toHaveLength(1);
      clock.mockReturnValue(start + 11 * 60_000);
      await expect(sessionLevel(app.auth)).resolves.toMatchObject({ verified: true });
      expect(jwksCalls).toHaveLength(2);
    } finally {
      clock.mockRestore();
    }

    // A client without the JWKS (offline start) shows the stored level, marked unverified.
    const other = createClient(stack.apiUrl, stack.anonKey, {
      auth: {
        persistSession: false,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        storageKey: `k-${user.id}`,
      },
      global: {
        fetch: async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.endsWith('/.well-known/jwks.json')) throw new TypeError('fetch failed');
          return fetch(input, init);
        },
      },
      realtime: { transport: class {} as never },
    });
    await other.auth.signInWithPassword({ email, password });
    await expect(sessionLevel(other.auth)).resolves.toEqual({
      aal: 'aal1',
      role: 'user',
      verified: false,
    });
    await other.auth.signOut({ scope: 'local' });
    await expect(sessionLevel(other.auth)).resolves.toMatchObject({ aal: null, verified: false });
  });

  it('rotates: standby published, then signing, the previous key verifying until revoked', async () => {
    const keyFile = dataPaths(stack.dataDir).signingKeys;
    const before = await signUpUser(stack);
    const oldKid = String(headerOf(before.session.access_token).kid);

    // Step 1 through the command a developer runs; the running stack notices by itself.
    await promisify(execFile)('npx', ['tsx', 'supabase/local/keys-cli.ts', 'standby'], {
      env: { ...process.env, KIRAA_DATA_DIR: stack.dataDir },
    });
    const standby = readKeyFile(keyFile).keys.find((k) => k.status === 'standby')!;
    await expect
      .poll(async () => (await jwks()).body.keys.map((k) => k.kid), { timeout: 5000 })
      .toEqual([oldKid, standby.kid]);
    await stack.reloadSigningKeys();
    const stillOld = await signUpUser(stack);
    expect(headerOf(stillOld.session.access_token).kid).toBe(oldKid);

    // Step 2: the standby key signs; tokens of the previous key keep working everywhere.
    const file = readKeyFile(keyFile);
    rotate(file);
    writeKeyFile(keyFile, file);
    await stack.reloadSigningKeys();
    const after = await signUpUser(stack);
    expect(headerOf(after.session.access_token).kid).toBe(standby.kid);
    expect((await jwks()).body.keys.map((k) => k.kid)).toEqual([standby.kid, oldKid]);
    expect(await answers(before.session.access_token, before.user.id)).toMatchObject(ACCEPTED);
    expect(await answers(after.session.access_token, after.user.id)).toMatchObject(ACCEPTED);

    // Step 3: not before the previous key's tokens expired, unless forced.
    const rotated = readKeyFile(keyFile);
    expect(revoke(rotated, stack.settings.auth.jwtExpiry)).toMatchObject({ removed: [] });
    expect(
      revoke(rotated, stack.settings.auth.jwtExpiry, { kid: oldKid, force: true }),
    ).toMatchObject({ removed: [oldKid] });
    writeKeyFile(keyFile, rotated);
    await stack.reloadSigningKeys();
    expect((await jwks()).body.keys.map((k) => k.kid)).toEqual([standby.kid]);
    expect(await answers(before.session.access_token, before.user.id)).toMatchObject(REFUSED);
    expect(await answers(after.session.access_token, after.user.id)).toMatchObject(ACCEPTED);
    // A refresh of the old session gets a token of the current key.
    const refreshed = await before.client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(headerOf(refreshed.data.session!.access_token).kid).toBe(standby.kid);
  });
});
