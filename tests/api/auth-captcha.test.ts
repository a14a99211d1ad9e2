/**
 * CAPTCHA on sign-up, sign-in and recovery (supabase/config.toml [auth.captcha], GoTrue's
 * verifyCaptcha): a stack of its own with the setting on, checking tokens with a local verifier
 * that answers as hCaptcha's and Turnstile's siteverify do (no internet here).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestStack, type TestStack } from '../support/stack.ts';
import { nodeClient, uniqueEmail } from '../support/supabase.ts';

const PASSWORD = 'Kiraa-test1!';
const PROFILE = { name: 'Walid Khelifi', phone: '+213560777888', age: 41, address: 'Sétif' };

describe('CAPTCHA', () => {
  const seen: URLSearchParams[] = [];
  const verifier: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      seen.push(form);
      const ok = form.get('secret') === 'test-secret' && form.get('response') === 'human';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  let stack: TestStack;
  const client = () => nodeClient(stack.apiUrl, stack.anonKey);

  beforeAll(async () => {
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const { port } = verifier.address() as AddressInfo;
    stack = await startTestStack({
      settings: {
        auth: {
          captcha: {
            enabled: true,
            provider: 'turnstile',
            secret: 'test-secret',
            verifyUrl: `http://127.0.0.1:${port}/siteverify`,
          },
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => verifier.close(resolve));
  });

  it('refuses a sign-up without a token or with a bad one, accepts a good one', async () => {
    const email = uniqueEmail('captcha');
    const none = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: PROFILE },
    });
    expect(none.error).toMatchObject({
      status: 400,
      code: 'captcha_failed',
      message: 'captcha protection: request disallowed (no captcha_token found)',
    });
    const bad = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: PROFILE, captchaToken: 'robot' },
    });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'captcha_failed',
      message: 'captcha protection: request disallowed (invalid-input-response)',
    });
    const good = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: PROFILE, captchaToken: 'human' },
    });
    expect(good.error).toBeNull();
    expect(seen.at(-1)?.get('remoteip')).toBeTruthy();
  });

  it('asks for it at password sign-in and recovery, not at refresh', async () => {
    const email = uniqueEmail('captcha');
    await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: PROFILE, captchaToken: 'human' },
    });
    const without = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(without.error).toMatchObject({ code: 'captcha_failed' });
    const signedIn = await client().auth.signInWithPassword({
      email,
      password: PASSWORD,
      options: { captchaToken: 'human' },
    });
    expect(signedIn.error).toBeNull();
    const refreshed = await client().auth.refreshSession({
      refresh_token: signedIn.data.session!.refresh_token,
    });
    expect(refreshed.error).toBeNull();
    expect((await client().auth.resetPasswordForEmail(email)).error).toMatchObject({
      code: 'captcha_failed',
    });
    expect(
      (await client().auth.resetPasswordForEmail(email, { captchaToken: 'human' })).error,
    ).toBeNull();
  });
});
