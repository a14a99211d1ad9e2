import { describe, expect, it } from 'vitest';

import { backoffDelay } from '@/sync/outbox/entry';
import { classifyError, type ApiError } from '@/sync/outbox/errors';

describe('classifyError', () => {
  it.each([
    [{ status: 0, message: 'TypeError: Failed to fetch' }, 'transient', 'network'],
    [{ status: 408 }, 'transient', 'http_408'],
    [{ status: 429 }, 'transient', 'http_429'],
    [{ status: 502 }, 'transient', 'http_502'],
    [{ status: 503 }, 'transient', 'http_503'],
    [{ status: 504 }, 'transient', 'http_504'],
    [{ status: 404, code: 'PGRST202' }, 'permanent', 'http_404'],
    [{ status: 401 }, 'auth', 'unauthorized'],
    [{ status: 401, code: 'PGRST303' }, 'auth', 'unauthorized'],
    // PostgREST 13+ (hosted projects run 14): a JWT sent empty is PGRST301, a table that is not
    // there PGRST205 (a 404, no longer an empty answer): signed out, and parked, not retried.
    [
      { status: 401, code: 'PGRST301', message: 'No suitable key or wrong key type' },
      'auth',
      'unauthorized',
    ],
    [
      { status: 404, code: 'PGRST205', message: 'Could not find the table' },
      'permanent',
      'http_404',
    ],
    [{ status: 400, code: 'P0001', message: 'car_unavailable' }, 'permanent', 'car_unavailable'],
    [{ status: 400, code: '22023', message: 'bad' }, 'permanent', '22023'],
    [{ status: 409, code: '23P01', message: 'exclusion' }, 'permanent', '23P01'],
    [{ status: 403, code: '42501', message: 'denied' }, 'permanent', 'not_allowed'],
    [{ status: 400, statusCode: '413', message: 'too big' }, 'permanent', 'file_too_large'],
    [{ status: 400, statusCode: '415', message: 'x' }, 'permanent', 'unsupported_file_type'],
    [{ status: 403, statusCode: '403', message: 'policy' }, 'permanent', 'not_allowed'],
    [{ status: 500, code: 'XX000' }, 'transient', 'http_500'],
  ] as [ApiError, string, string][])('%o → %s %s', (error, kind, code) => {
    expect(classifyError(error)).toEqual({ kind, code });
  });
});

describe('limits of public booking', () => {
  it('are deferred until the retry_after of their detail, never parked', () => {
    const limit = (message: string, details: string | null) =>
      classifyError({ status: 400, code: 'P0001', message, details });
    expect(
      limit('booking_rate_limited', '{"limit" : 20, "retry_after" : "2026-11-25T09:30:09Z"}'),
    ).toEqual({
      kind: 'deferred',
      code: 'booking_rate_limited',
      retryAt: Date.parse('2026-11-25T09:30:09Z'),
    });
    // null: it waits for the agency's answer on a pending booking.
    expect(limit('too_many_pending_for_contact', '{"limit": 3, "retry_after": null}')).toEqual({
      kind: 'deferred',
      code: 'too_many_pending_for_contact',
      retryAt: null,
    });
    for (const code of ['too_many_pending_for_account', 'too_many_pending_from_address']) {
      expect(limit(code, 'not json')).toMatchObject({ kind: 'deferred', code, retryAt: null });
    }
    expect(limit('booking_too_far_ahead', '{"max_days": 365}')).toEqual({
      kind: 'permanent',
      code: 'booking_too_far_ahead',
    });
  });
});

describe('backoffDelay', () => {
  it('starts at 200 ms, doubles, and is capped at 5 minutes', () => {
    expect([1, 2, 3, 4, 5].map(backoffDelay)).toEqual([200, 400, 800, 1600, 3200]);
    expect(backoffDelay(11)).toBe(204_800);
    expect(backoffDelay(12)).toBe(300_000);
    expect(backoffDelay(60)).toBe(300_000);
  });
});
