// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { apiKeyFor, DEV_JWT_SECRET, portFromEnv, resolveKeys } from './config.ts';
import { verifyJwt } from './jwt.ts';

// The Supabase CLI's published local keys: supabase-js examples and tools recognise them.
const SUPABASE_CLI_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
const SUPABASE_CLI_SERVICE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

describe('development keys', () => {
  it('are the Supabase CLI’s fixed local values', () => {
    expect(resolveKeys({})).toEqual({
      jwtSecret: DEV_JWT_SECRET,
      anonKey: SUPABASE_CLI_ANON_KEY,
      serviceRoleKey: SUPABASE_CLI_SERVICE_KEY,
    });
    expect(verifyJwt(SUPABASE_CLI_ANON_KEY, DEV_JWT_SECRET)).toEqual({
      iss: 'supabase-demo',
      role: 'anon',
      exp: 1983812996,
    });
  });

  it('come from the environment when it names them', () => {
    const secret = 'a-production-secret-that-is-long-enough!';
    const keys = resolveKeys({ JWT_SECRET: secret });
    expect(keys.jwtSecret).toBe(secret);
    expect(verifyJwt(keys.anonKey, secret)).toMatchObject({ role: 'anon' });
    expect(verifyJwt(keys.serviceRoleKey, secret)).toMatchObject({ role: 'service_role' });
    expect(resolveKeys({ JWT_SECRET: secret, ANON_KEY: 'a', SERVICE_ROLE_KEY: 's' })).toMatchObject(
      {
        anonKey: 'a',
        serviceRoleKey: 's',
      },
    );
    expect(apiKeyFor('anon', secret)).toBe(keys.anonKey);
  });

  it('refuse a short JWT secret', () => {
    expect(() => resolveKeys({ JWT_SECRET: 'short' })).toThrow(/at least 32 characters/);
  });
});

describe('portFromEnv', () => {
  it('reads a port, 0 meaning any free port, and refuses nonsense', () => {
    expect(portFromEnv('P', 54321, {})).toBe(54321);
    expect(portFromEnv('P', 54321, { P: '' })).toBe(54321);
    expect(portFromEnv('P', 54321, { P: '0' })).toBe(0);
    expect(portFromEnv('P', 54321, { P: '6000' })).toBe(6000);
    expect(() => portFromEnv('P', 54321, { P: 'abc' })).toThrow(
      'P must be a port number (0-65535), got "abc".',
    );
    expect(() => portFromEnv('P', 54321, { P: '70000' })).toThrow(/port number/);
  });
});
