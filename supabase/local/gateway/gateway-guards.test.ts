// @vitest-environment node
import { describe, expect, it } from 'vitest';

import {
  ANON_WRITES,
  JsonDepthScanner,
  MAX_JSON_DEPTH,
  MAX_URL_BYTES,
  RateLimiter,
  checkAnnouncedBody,
  checkRestUrl,
  isAnonymousWrite,
  isJsonBody,
  jsonTooDeep,
  limiterKey,
} from './gateway-guards.ts';
import { signJwt } from '../jwt.ts';

describe('RateLimiter', () => {
  it('lets a burst through, then one request per 1/rate seconds, with the wait to announce', () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 10, burst: 100, now: () => now });
    for (let i = 0; i < 100; i++) expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBe(1);
    now += 100; // one token back
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBe(1);
    // Another address has its own bucket.
    expect(limiter.take('b')).toBeNull();
  });

  it('never refuses an airport hall: 300 travellers, 10 writes each within 10 minutes', () => {
    // Random arrival times (a fixed seed), sorted: ~5 writes a second with their natural bursts.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const times = Array.from({ length: 300 * 10 }, () => random() * 600_000).sort((a, b) => a - b);
    let now = 0;
    const limiter = new RateLimiter({ ...ANON_WRITES, now: () => now });
    let refused = 0;
    for (const time of times) {
      now = time;
      if (limiter.take('hall') !== null) refused++;
    }
    expect(refused).toBe(0);
  });

  it('holds one hostile address to the sustained rate', () => {
    let now = 0;
    const limiter = new RateLimiter({ ...ANON_WRITES, now: () => now });
    let allowed = 0;
    // 1000 requests a second for 10 seconds.
    for (let i = 0; i < 10_000; i++) {
      now = i;
      if (limiter.take('bot') === null) allowed++;
    }
    expect(allowed).toBeLessThanOrEqual(ANON_WRITES.burst + 10 * ANON_WRITES.perSecond + 1);
  });

  it('forgets the least recently used addresses past its size', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 1, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) limiter.take(key);
    expect(limiter.size).toBe(3);
  });
});

describe('limiterKey', () => {
  it('keys IPv4 by address and IPv6 by its /64 network', () => {
    expect(limiterKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limiterKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limiterKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('checkRestUrl', () => {
  it('refuses control characters in the decoded path and bad percent-encoding', () => {
    expect(checkRestUrl('/rest/v1/cars%00?select=id')?.status).toBe(400);
    expect(checkRestUrl('/rest/v1/ca%0D%0Ars')?.status).toBe(400);
    expect(checkRestUrl('/rest/v1/ca%zzrs')?.status).toBe(400);
    expect(checkRestUrl('/rest/v1/cars?slug=eq.%FF')?.status).toBe(400);
    expect(checkRestUrl('/rest/v1/cars?slug=eq.%C3%A9&name=like.*a*')).toBeNull();
    expect(checkRestUrl('/rest/v1/cars?select=id&slug=eq.%00')).toBeNull();
    expect(checkRestUrl('/rest/v1/rpc/quote_booking')).toBeNull();
  });

  it('refuses a URL longer than the cap with 414', () => {
    const long = `/rest/v1/cars?slug=in.(${','.repeat(MAX_URL_BYTES)})`;
    expect(checkRestUrl(long)).toMatchObject({ status: 414, body: { code: 'url_too_long' } });
    expect(checkRestUrl(`/rest/v1/cars?slug=in.(${'x,'.repeat(1000)}x)`)).toBeNull();
  });
});

describe('checkAnnouncedBody and isAnonymousWrite', () => {
  it('refuses an announced body over the cap', () => {
    expect(checkAnnouncedBody({ 'content-length': String(2 * 1024 * 1024) })?.status).toBe(413);
    expect(checkAnnouncedBody({ 'content-length': '100' })).toBeNull();
    expect(checkAnnouncedBody({})).toBeNull();
  });

  it('counts writes without a valid user token as anonymous: a forged token does not escape', () => {
    const secret = 'a-test-secret-of-at-least-32-characters';
    const anon = signJwt({ role: 'anon' }, secret);
    const user = signJwt({ role: 'authenticated', sub: 'u', exp: 4_000_000_000 }, secret);
    const expired = signJwt({ role: 'authenticated', sub: 'u', exp: 1 }, secret);
    const forged = signJwt(
      { role: 'authenticated', sub: 'u' },
      'another-secret-of-32-characters!!',
    );
    expect(isAnonymousWrite('POST', undefined, secret)).toBe(true);
    expect(isAnonymousWrite('POST', `Bearer ${anon}`, secret)).toBe(true);
    expect(isAnonymousWrite('POST', 'Bearer made-up', secret)).toBe(true);
    expect(isAnonymousWrite('POST', `Bearer ${forged}`, secret)).toBe(true);
    expect(isAnonymousWrite('POST', `Bearer ${expired}`, secret)).toBe(true);
    expect(isAnonymousWrite('PATCH', `Bearer ${user}`, secret)).toBe(false);
    expect(isAnonymousWrite('GET', undefined, secret)).toBe(false);
    // Told the anon key, it skips the signature; a user's token is still read.
    expect(isAnonymousWrite('POST', `Bearer ${anon}`, secret, anon)).toBe(true);
    expect(isAnonymousWrite('GET', `Bearer ${anon}`, secret, anon)).toBe(false);
    expect(isAnonymousWrite('POST', `Bearer ${user}`, secret, anon)).toBe(false);
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number) => `{"p":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it('takes the app’s bodies and refuses one nested deeper than the cap', () => {
    const booking = JSON.stringify({ p: { price: { days: 3 }, extras: ['gps'], name: '[{' } });
    expect(jsonTooDeep(booking)).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(nested(7500))).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '['.repeat(500), b: '\\"[[[[', c: 'é{ü[' });
    expect(jsonTooDeep(text, 2)).toBe(false);
    expect(jsonTooDeep(`{"a":"\\\\"}`, 1)).toBe(false);
  });

  it('counts across chunks as a body streams', () => {
    const scanner = new JsonDepthScanner(3);
    expect(scanner.push(Buffer.from('{"a":[['))).toBe(true);
    expect(scanner.push(Buffer.from(']],"b":"[[[["'))).toBe(true);
    expect(scanner.push(Buffer.from(',"c":[[['))).toBe(false);
  });

  it('reads JSON media types and a missing type as JSON, not CSV or forms', () => {
    expect(isJsonBody({})).toBe(true);
    expect(isJsonBody({ 'content-type': 'application/json; charset=utf-8' })).toBe(true);
    expect(isJsonBody({ 'content-type': 'application/vnd.pgrst.object+json' })).toBe(true);
    expect(isJsonBody({ 'content-type': 'text/csv' })).toBe(false);
    expect(isJsonBody({ 'content-type': 'application/x-www-form-urlencoded' })).toBe(false);
  });
});
