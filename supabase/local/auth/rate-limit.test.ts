import { describe, expect, it } from 'vitest';

import { SlidingWindowLimiter } from './rate-limit.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('SlidingWindowLimiter', () => {
  it('allows `max` events per window, then refuses with the time until a slot frees', () => {
    const time = clock();
    const limiter = new SlidingWindowLimiter({ max: 3, windowSeconds: 60 }, true, time.now);
    expect(limiter.take('k')).toEqual({ allowed: true });
    time.advance(10_000);
    expect(limiter.take('k')).toEqual({ allowed: true });
    expect(limiter.take('k')).toEqual({ allowed: true });
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    // Refused attempts are not recorded: the oldest event still decides.
    time.advance(49_000);
    expect(limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.advance(1_000);
    expect(limiter.take('k')).toEqual({ allowed: true });
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('keeps keys apart', () => {
    const limiter = new SlidingWindowLimiter({ max: 1, windowSeconds: 60 }, true, clock().now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('check does not count, hit counts, reset forgets', () => {
    const limiter = new SlidingWindowLimiter({ max: 2, windowSeconds: 60 }, true, clock().now);
    for (let i = 0; i < 5; i++) expect(limiter.check('k').allowed).toBe(true);
    limiter.hit('k');
    limiter.hit('k');
    expect(limiter.check('k').allowed).toBe(false);
    limiter.reset('k');
    expect(limiter.check('k').allowed).toBe(true);
  });

  it('never limits when disabled or for exempt keys', () => {
    const time = clock();
    const off = new SlidingWindowLimiter({ max: 0, windowSeconds: 60 }, false, time.now);
    expect(off.take('k')).toEqual({ allowed: true });
    const exempt = new SlidingWindowLimiter({ max: 1, windowSeconds: 60 }, true, time.now, (k) =>
      k.startsWith('127.'),
    );
    for (let i = 0; i < 3; i++) expect(exempt.take('127.0.0.1').allowed).toBe(true);
    expect(exempt.take('10.0.0.1').allowed).toBe(true);
    expect(exempt.take('10.0.0.1').allowed).toBe(false);
  });

  it('gives the memory of idle keys back', () => {
    const time = clock();
    const limiter = new SlidingWindowLimiter({ max: 5, windowSeconds: 10 }, true, time.now);
    for (let i = 0; i < 100; i++) limiter.hit(`ip-${i}`);
    expect(limiter.size).toBe(100);
    time.advance(61_000);
    limiter.check('someone-else');
    expect(limiter.size).toBe(0);
  });
});
