// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { isAllowedOrigin } from './gateway.ts';

describe('isAllowedOrigin', () => {
  it('allows the app’s origins and localhost on any port, nothing else', () => {
    const app = ['https://kiraa.example'];
    expect(isAllowedOrigin('https://kiraa.example', app)).toBe(true);
    expect(isAllowedOrigin('http://localhost:4173', app)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:5173', app)).toBe(true);
    expect(isAllowedOrigin('http://[::1]:9000', app)).toBe(true);
    expect(isAllowedOrigin('http://localhost', app)).toBe(true);
    expect(isAllowedOrigin('https://kiraa.example.evil.com', app)).toBe(false);
    expect(isAllowedOrigin('http://localhost.evil.com', app)).toBe(false);
    expect(isAllowedOrigin('null', app)).toBe(false);
  });
});
