import { describe, expect, it } from 'vitest';

import { authOptionsFromEnv, DEFAULT_AUTH_OPTIONS } from './options.ts';

describe('authOptionsFromEnv', () => {
  it('keeps the defaults without variables', () => {
    expect(authOptionsFromEnv({})).toEqual(DEFAULT_AUTH_OPTIONS);
    expect(DEFAULT_AUTH_OPTIONS).toMatchObject({
      tokenGrantsPerIp: { max: 150, windowSeconds: 300 },
      recoveryIntervalSeconds: 60,
      recoveryTokenTtlSeconds: 3600,
      refreshTokenReuseIntervalSeconds: 10,
      bcryptCost: 10,
    });
  });

  it('reads limits, intervals and switches', () => {
    const options = authOptionsFromEnv({
      KIRAA_AUTH_TOKEN_GRANTS_PER_IP: '3/60',
      KIRAA_AUTH_SIGN_UPS_PER_IP: ' 100 / 3600 ',
      KIRAA_AUTH_RECOVERY_TOKEN_TTL: '600',
      KIRAA_AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '0',
      KIRAA_AUTH_BCRYPT_COST: '4',
      KIRAA_AUTH_RATE_LIMITS: 'off',
      KIRAA_AUTH_IP_LIMITS_FOR_LOOPBACK: 'on',
    });
    expect(options).toMatchObject({
      tokenGrantsPerIp: { max: 3, windowSeconds: 60 },
      signUpsPerIp: { max: 100, windowSeconds: 3600 },
      recoveryTokenTtlSeconds: 600,
      refreshTokenReuseIntervalSeconds: 0,
      bcryptCost: 4,
      rateLimits: false,
      exemptLoopbackFromIpLimits: false,
    });
  });

  it.each([
    ['KIRAA_AUTH_SIGN_UPS_PER_IP', '30'],
    ['KIRAA_AUTH_SIGN_UPS_PER_IP', '30/0'],
    ['KIRAA_AUTH_RECOVERY_INTERVAL', '1m'],
    ['KIRAA_AUTH_RATE_LIMITS', 'maybe'],
    ['KIRAA_AUTH_BCRYPT_COST', '40'],
  ])('refuses %s=%j instead of silently keeping the default', (name, value) => {
    expect(() => authOptionsFromEnv({ [name]: value })).toThrow(name);
  });
});
