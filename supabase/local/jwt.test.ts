import { describe, expect, it } from 'vitest';

import { JwtError, signJwt, verifyJwt } from './jwt.ts';

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
