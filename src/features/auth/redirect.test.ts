import { describe, expect, it } from 'vitest';

import { redirectTarget, withRedirect } from '@/features/auth/redirect';

describe('redirectTarget', () => {
  it('goes to redirectUrl when it is a path of the app', () => {
    expect(redirectTarget('?redirectUrl=%2Fmybookings')).toBe('/mybookings');
    expect(redirectTarget('?redirectUrl=%2Fcars%3Ftransmission%3Dmanual%23top')).toBe(
      '/cars?transmission=manual#top',
    );
  });

  it('defaults to /home', () => {
    expect(redirectTarget('')).toBe('/home');
    expect(redirectTarget('?other=1')).toBe('/home');
  });

  it('never leaves the app', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      'javascript:alert(1)',
      'mybookings',
    ]) {
      expect(redirectTarget(new URLSearchParams({ redirectUrl: target }))).toBe('/home');
    }
  });

  it('never returns to an auth page', () => {
    expect(redirectTarget('?redirectUrl=%2Fsign-in')).toBe('/home');
    expect(redirectTarget('?redirectUrl=%2Freset-password')).toBe('/home');
  });
});

describe('withRedirect', () => {
  it('carries redirectUrl between sign-in and sign-up', () => {
    expect(withRedirect('/sign-up', '?redirectUrl=%2Fmybookings')).toBe(
      '/sign-up?redirectUrl=%2Fmybookings',
    );
    expect(withRedirect('/sign-up', '')).toBe('/sign-up');
  });
});
