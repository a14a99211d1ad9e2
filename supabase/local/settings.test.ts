// @vitest-environment node
import { readFileSync } from 'node:fs';

import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

import { PATHS } from './config.ts';
import { parseDurationSeconds, parseSize, UnsupportedSettingError } from './settings-reader.ts';
import { loadSettings, parseSettings, withOverrides } from './settings.ts';

describe('supabase/config.toml', () => {
  it('is what the local stack runs with: the hosted settings of the project', () => {
    const settings = loadSettings(undefined, {});
    expect(settings.api).toEqual({
      port: 54321,
      schemas: ['public'],
      extraSearchPath: ['public', 'extensions'],
      maxRows: 1000,
    });
    expect(settings.auth.minimumPasswordLength).toBe(8);
    expect(settings.auth.passwordRequirements).toBe('lower_upper_letters_digits_symbols');
    expect(settings.auth.email.otpLength).toBeGreaterThanOrEqual(8);
    expect(settings.auth.email.enableConfirmations).toBe(true);
    expect(settings.auth.refreshTokenReuseInterval).toBe(10);
    expect(settings.auth.hooks.beforeUserCreated?.uri).toBe(
      'pg-functions://postgres/public/hook_before_user_created',
    );
    expect(settings.auth.hooks.passwordVerificationAttempt?.uri).toBe(
      'pg-functions://postgres/public/hook_password_verification_attempt',
    );
  });

  it('takes the Team-only lockout hook from the plan the local stack plays (team unless told)', () => {
    const uri = 'pg-functions://postgres/public/hook_password_verification_attempt';
    expect(loadSettings(undefined, {}).auth.hooks.passwordVerificationAttempt?.uri).toBe(uri);
    expect(
      loadSettings(undefined, { KIRAA_LOCAL_PLAN: 'team' }).auth.hooks.passwordVerificationAttempt
        ?.uri,
    ).toBe(uri);
    for (const plan of ['free', 'pro']) {
      const settings = loadSettings(undefined, { KIRAA_LOCAL_PLAN: plan });
      expect(settings.auth.hooks.passwordVerificationAttempt).toBeNull();
      // The rest of a remote block (production's CAPTCHA, Send Email hook) never runs locally.
      expect(settings.auth.captcha.enabled).toBe(false);
      expect(settings.auth.hooks.sendEmail).toBeNull();
    }
    expect(() => loadSettings(undefined, { KIRAA_LOCAL_PLAN: 'gold' })).toThrow('KIRAA_LOCAL_PLAN');
  });

  it('declares the Team-only hook in [remotes.team] alone, so Free and Pro pushes never name it', () => {
    const text = readFileSync(PATHS.config, 'utf8');
    const doc = parse(text) as {
      auth: { hook: Record<string, unknown> };
      remotes: Record<string, { auth: { hook: Record<string, unknown> } }>;
    };
    expect(doc.auth.hook).not.toHaveProperty('password_verification_attempt');
    expect(doc.remotes.free!.auth.hook).not.toHaveProperty('password_verification_attempt');
    expect(doc.remotes.pro!.auth.hook).not.toHaveProperty('password_verification_attempt');
    expect(doc.remotes.team!.auth.hook).toHaveProperty('password_verification_attempt');
  });

  it('replaces env(NAME) as the CLI does, and names a variable a needed value lacks', () => {
    const text = `[auth]\nsite_url = "env(SITE)"\n[auth.hook.send_email]\nenabled = true\nuri = "env(HOOK_URI)"\nsecrets = "env(HOOK_SECRET)"\n`;
    const settings = parseSettings(text, {
      SITE: 'https://kiraa.example',
      HOOK_URI: 'http://127.0.0.1:9/hook',
      HOOK_SECRET: 'v1,whsec_c2VjcmV0',
    });
    expect(settings.auth.siteUrl).toBe('https://kiraa.example');
    expect(settings.auth.hooks.sendEmail).toEqual({
      uri: 'http://127.0.0.1:9/hook',
      secrets: 'v1,whsec_c2VjcmV0',
    });
    expect(() => parseSettings(text, { SITE: 'x', HOOK_URI: 'http://h' })).toThrow(
      /auth\.hook\.send_email\.secrets: set the environment variable HOOK_SECRET/,
    );
  });

  it.each([
    ['[auth]\nenable_anonymous_sign_ins = true', 'auth.enable_anonymous_sign_ins'],
    [
      '[auth.hook.custom_access_token]\nenabled = true\nuri = "pg-functions://postgres/public/f"',
      'auth.hook.custom_access_token',
    ],
    ['[auth.external.google]\nenabled = true', 'auth.external.google'],
    ['[auth.mfa.phone]\nenroll_enabled = true', 'auth.mfa.phone'],
    ['[auth.mfa.web_authn]\nverify_enabled = true', 'auth.mfa.web_authn'],
    ['[auth.email]\notp_length = 4', 'auth.email.otp_length'],
    ['[auth]\npassword_requirements = "emoji"', 'auth.password_requirements'],
    [
      '[auth.hook.before_user_created]\nenabled = true\nuri = "http://x"',
      'auth.hook.before_user_created.uri',
    ],
  ])('stops on a setting it cannot emulate: %s', (text, setting) => {
    let caught: unknown;
    try {
      parseSettings(text, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnsupportedSettingError);
    expect((caught as UnsupportedSettingError).setting).toBe(setting);
  });

  it('reads sizes and durations as the CLI writes them', () => {
    expect(parseSize('5MiB')).toBe(5 * 1024 * 1024);
    expect(parseSize('50MB')).toBe(50_000_000);
    expect(parseDurationSeconds('x', '1m30s')).toBe(90);
    expect(() => parseDurationSeconds('x', 'soon')).toThrow(UnsupportedSettingError);
  });

  it('lets a test stack override a setting without touching the others', () => {
    const base = loadSettings(undefined, {});
    const off = withOverrides(base, { auth: { email: { enableConfirmations: false } } });
    expect(off.auth.email.enableConfirmations).toBe(false);
    expect(off.auth.email.otpLength).toBe(base.auth.email.otpLength);
    expect(off.auth.hooks).toEqual(base.auth.hooks);
  });
});
