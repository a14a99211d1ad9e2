import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { JwtError, signJwt, signJwtEs256, verifyJwt } from './jwt.ts';

const secret = 'a-test-secret-that-is-at-least-32-characters';

describe('jwt', () => {
  it('round-trips claims signed with the secret', () => {
    const token = signJwt({ role: 'authenticated', sub: 'u1', exp: 2_000_000_000 }, secret);
    expect(verifyJwt(token, secret, 1_900_000_000)).toMatchObject({
      role: 'authenticated',
      sub: 'u1',
    });
  });

  it('refuses a token signed with another secret', () => {
    const token = signJwt({ role: 'service_role' }, 'another-secret-another-secret-another');
    expect(() => verifyJwt(token, secret)).toThrow(new JwtError('bad_signature'));
  });

  it('refuses a tampered payload', () => {
    const [h, , s] = signJwt({ role: 'anon' }, secret).split('.');
    const forged = Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url');
    expect(() => verifyJwt(`${h}.${forged}.${s}`, secret)).toThrow(new JwtError('bad_signature'));
  });

  it('refuses an expired token', () => {
    const token = signJwt({ role: 'anon', exp: 100 }, secret);
    expect(() => verifyJwt(token, secret, 100)).toThrow(new JwtError('expired'));
  });

  it('refuses anything that is not three base64url parts', () => {
    expect(() => verifyJwt('abc.def', secret)).toThrow(new JwtError('malformed'));
    expect(() => verifyJwt('a.b.c.d', secret)).toThrow(new JwtError('malformed'));
    expect(() => verifyJwt('a!.b.c', secret)).toThrow(new JwtError('malformed'));
  });
});

describe('ES256 with a key set', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const keys = { secret, publicKey: (kid: string) => (kid === 'k1' ? publicKey : null) };

  it('verifies a token by its kid, and HS256 ones with the secret', () => {
    const token = signJwtEs256({ role: 'authenticated', sub: 'u1' }, { kid: 'k1', privateKey });
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({
      alg: 'ES256',
      kid: 'k1',
      typ: 'JWT',
    });
    expect(token.split('.')[2]).toHaveLength(86); // r‖s, 64 bytes
    expect(verifyJwt(token, keys)).toMatchObject({ sub: 'u1' });
    expect(verifyJwt(signJwt({ role: 'anon' }, secret), keys)).toMatchObject({ role: 'anon' });
  });

  it('refuses an unknown kid, another key under a known kid, and ES256 with the secret alone', () => {
    const unknown = signJwtEs256({ role: 'service_role' }, { kid: 'k2', privateKey });
    expect(() => verifyJwt(unknown, keys)).toThrow(new JwtError('unknown_key'));
    const otherKey = signJwtEs256({ role: 'service_role' }, { kid: 'k1', privateKey: other });
    expect(() => verifyJwt(otherKey, keys)).toThrow(new JwtError('bad_signature'));
    const good = signJwtEs256({ role: 'authenticated' }, { kid: 'k1', privateKey });
    expect(() => verifyJwt(good, secret)).toThrow(new JwtError('unknown_key'));
  });

  it('refuses alg none and HS256 keyed by the public key', () => {
    const body = Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(() => verifyJwt(`${none}.${body}.c2ln`, keys)).toThrow(new JwtError('malformed'));
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(() => verifyJwt(signJwt({ role: 'service_role' }, pem), keys)).toThrow(
      new JwtError('bad_signature'),
    );
  });
});
