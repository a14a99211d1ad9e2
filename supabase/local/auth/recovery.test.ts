import { describe, expect, it } from 'vitest';

import type { StackConfig } from '../context.ts';
import { parseGoDuration } from './admin.ts';
import { redirectGlob, resolveRedirect } from './recovery.ts';
import { isLoopback } from './service.ts';

const config = {
  apiUrl: 'http://localhost:54321',
  siteUrl: 'https://kiraa.example/',
  appOrigins: ['http://localhost:5173'],
} as StackConfig;

describe('resolveRedirect (the redirect allow list)', () => {
  it.each([
    [null, 'https://kiraa.example/reset-password'],
    ['', 'https://kiraa.example/reset-password'],
    [
      'https://kiraa.example/reset-password?lang=ar',
      'https://kiraa.example/reset-password?lang=ar',
    ],
    ['https://kiraa.example/sign-in', 'https://kiraa.example/sign-in'],
    ['http://localhost:5173/reset-password', 'http://localhost:5173/reset-password'],
    ['http://kiraa.example/reset-password', 'https://kiraa.example/reset-password'],
    ['https://kiraa.example.evil.test/x', 'https://kiraa.example/reset-password'],
    ['https://evil.test/?https://kiraa.example', 'https://kiraa.example/reset-password'],
    ['javascript:alert(1)//https://kiraa.example', 'https://kiraa.example/reset-password'],
    ['/reset-password', 'https://kiraa.example/reset-password'],
    ['https://kiraa.example:8443/reset-password', 'https://kiraa.example/reset-password'],
    ['http://localhost:4173/reset-password', 'https://kiraa.example/reset-password'],
  ])('%j → %s', (requested, expected) => {
    expect(resolveRedirect(config, requested)).toBe(expected);
  });

  it('lets a loopback site URL redirect to any port of the same host (dev servers)', () => {
    const local = { ...config, siteUrl: 'http://localhost:4173', appOrigins: [] };
    expect(resolveRedirect(local, 'http://localhost:5173/reset-password')).toBe(
      'http://localhost:5173/reset-password',
    );
    expect(resolveRedirect(local, 'http://127.0.0.1:5173/reset-password')).toBe(
      'http://localhost:4173/reset-password',
    );
    expect(resolveRedirect(local, 'https://localhost:5173/reset-password')).toBe(
      'http://localhost:4173/reset-password',
    );
  });
});

describe('redirectGlob (additional_redirect_urls, as GoTrue matches them)', () => {
  it('lets ** cross segments and * stay within one', () => {
    expect(
      redirectGlob('https://kiraa.example/**').test('https://kiraa.example/sign-in?lang=ar'),
    ).toBe(true);
    expect(redirectGlob('https://*.kiraa.example/*').test('https://preview.kiraa.example/x')).toBe(
      true,
    );
    expect(redirectGlob('https://*.kiraa.example/*').test('https://a.b.kiraa.example/x')).toBe(
      false,
    );
    expect(redirectGlob('https://kiraa.example/**').test('https://kiraa.example.evil.test/')).toBe(
      false,
    );
    const withGlobs = {
      ...config,
      auth: { additionalRedirectUrls: ['https://preview.kiraa.example/**'] },
    } as StackConfig;
    expect(resolveRedirect(withGlobs, 'https://preview.kiraa.example/reset-password')).toBe(
      'https://preview.kiraa.example/reset-password',
    );
  });
});

describe('parseGoDuration (ban_duration)', () => {
  it.each([
    ['24h', 86_400_000],
    ['1h30m', 5_400_000],
    ['90s', 90_000],
    ['1.5h', 5_400_000],
    ['876000h', 876_000 * 3_600_000],
  ])('%s → %d ms', (raw, ms) => {
    expect(parseGoDuration(raw)).toBe(ms);
  });

  it.each(['', 'h', '24', '24 h', '1d', 'forever', '-1h'])('refuses %j', (raw) => {
    expect(parseGoDuration(raw)).toBeNull();
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['1127.0.0.1', false],
  ])('%s → %s', (ip, expected) => {
    expect(isLoopback(ip)).toBe(expected);
  });
});
