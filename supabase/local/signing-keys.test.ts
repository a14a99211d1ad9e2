import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { signJwtEs256, verifyJwt } from './jwt.ts';
import {
  addStandby,
  ensureKeyFile,
  newKey,
  readKeyFile,
  revoke,
  rotate,
  SigningKeys,
  writeKeyFile,
  type KeyFile,
} from './signing-keys.ts';

const SECRET = 'a-test-secret-that-is-at-least-32-characters';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function keyPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiraa-keys-'));
  dirs.push(dir);
  return join(dir, 'signing-keys.json');
}

describe('rotation steps', () => {
  it('publishes a standby, rotates to it, keeps the previous key for jwt_expiry', () => {
    const t0 = new Date('2026-11-26T08:00:00Z');
    const file: KeyFile = { note: '', keys: [newKey('current', t0)] };
    const standby = addStandby(file, t0);
    expect(() => addStandby(file, t0)).toThrow(/already a standby key/);
    const { previous } = rotate(file, t0);
    expect(file.keys.find((k) => k.status === 'current')?.kid).toBe(standby.kid);
    expect(previous).toMatchObject({ status: 'previous', rotated_at: t0.toISOString() });

    const early = revoke(file, 3600, { now: new Date('2026-11-26T08:59:59Z') });
    expect(early).toEqual({
      removed: [],
      waiting: [{ kid: previous.kid, until: '2026-11-26T09:00:00.000Z' }],
    });
    expect(file.keys).toHaveLength(2);
    expect(revoke(file, 3600, { now: new Date('2026-11-26T09:00:00Z') }).removed).toEqual([
      previous.kid,
    ]);
    expect(file.keys.map((k) => k.kid)).toEqual([standby.kid]);
    expect(() => revoke(file, 3600, { kid: standby.kid })).toThrow(/current key cannot be revoked/);
    expect(() => revoke(file, 3600, { kid: 'nope' })).toThrow(/No signing key nope/);
    expect(() => rotate(file)).toThrow(/No standby key/);
  });

  it('removes a previous key at once only when forced', () => {
    const file: KeyFile = { note: '', keys: [newKey('current')] };
    addStandby(file);
    const { previous } = rotate(file);
    expect(revoke(file, 3600, { kid: previous.kid }).removed).toEqual([]);
    expect(revoke(file, 3600, { kid: previous.kid, force: true }).removed).toEqual([previous.kid]);
  });
});

describe('SigningKeys', () => {
  it('creates one current key, serves public JWKs only and follows the file', () => {
    const path = keyPath();
    const keys = new SigningKeys(path, SECRET);
    const first = keys.jwks().keys;
    expect(first).toHaveLength(1);
    expect(first[0]).not.toHaveProperty('d');
    expect(first[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', key_ops: ['verify'] });

    const token = signJwtEs256({ role: 'authenticated' }, keys.current());
    expect(verifyJwt(token, keys)).toMatchObject({ role: 'authenticated' });

    let changes = 0;
    keys.onChange(() => changes++);
    const file = readKeyFile(path);
    const standby = addStandby(file);
    rotate(file);
    writeKeyFile(path, file);
    expect(keys.current().kid).toBe(standby.kid);
    expect(changes).toBe(1);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([standby.kid, first[0]!.kid]);
    // The previous key still verifies its tokens; once removed it does not.
    expect(verifyJwt(token, keys)).toMatchObject({ role: 'authenticated' });
    revoke(file, 3600, { kid: first[0]!.kid, force: true });
    writeKeyFile(path, file);
    expect(() => verifyJwt(token, keys)).toThrow(/not in the JWKS/);

    const legacy = JSON.parse(keys.postgrestJwks()) as { keys: Array<Record<string, unknown>> };
    expect(legacy.keys.at(-1)).toEqual({
      kty: 'oct',
      k: Buffer.from(SECRET).toString('base64url'),
      alg: 'HS256',
    });
    keys.close();
  });

  it('refuses a key file without exactly one current key', () => {
    const path = keyPath();
    ensureKeyFile(path);
    const file = readKeyFile(path);
    file.keys[0]!.status = 'previous';
    writeKeyFile(path, file);
    expect(() => readKeyFile(path)).toThrow(/exactly one current/);
    expect(() => new SigningKeys(path, SECRET)).toThrow(/exactly one current/);
  });

  it('keeps the last good key set when the file is broken while it runs', () => {
    const path = keyPath();
    const keys = new SigningKeys(path, SECRET);
    const kid = keys.current().kid;
    const file = readKeyFile(path);
    file.keys[0]!.status = 'previous';
    writeKeyFile(path, file);
    expect(keys.current().kid).toBe(kid);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([kid]);
    keys.close();
  });
});
