/**
 * Sign-up with e-mail confirmation on (supabase/config.toml `enable_confirmations = true`, the
 * hosted default) and auth mails through the Send Email hook, on stacks of their own: the run's
 * shared stack turns confirmation off (tests/support/stack.ts).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestStack, type TestStack } from '../support/stack.ts';
import {
  fetchMails,
  nodeClient,
  parseAuthMail,
  uniqueEmail,
  waitForMailAt,
} from '../support/supabase.ts';

const PASSWORD = 'Kiraa-test1!';
const PROFILE = { name: 'Nadia Ferhat', phone: '+213550111222', age: 27, address: 'Oran' };
const APP = 'http://localhost:4173';

describe('sign-up with e-mail confirmation', () => {
  let stack: TestStack;
  const client = () => nodeClient(stack.apiUrl, stack.anonKey);

  beforeAll(async () => {
    stack = await startTestStack({
      settings: { auth: { email: { enableConfirmations: true } } },
    });
  });
  afterAll(() => stack?.stop());

  it('answers the user without a session, mails a link that confirms and signs in', async () => {
    const email = uniqueEmail('confirm');
    const c = client();
    const { data, error } = await c.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { ...PROFILE, locale: 'en' }, emailRedirectTo: `${APP}/sign-in?lang=ar` },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { name: PROFILE.name } });
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const early = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });

    const mail = await waitForMailAt(stack.mailboxUrl, email);
    // The redirect's `lang` wins over the saved locale.
    expect(mail.subject).toBe('كراء: أكّد عنوان بريدك الإلكتروني');
    const { link } = parseAuthMail(mail.text);
    expect(link.searchParams.get('type')).toBe('signup');
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const location = new URL(opened.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${APP}/sign-in`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('access_token')).toBeTruthy();

    // Used: the link does not work twice.
    const again = await fetch(link, { redirect: 'manual' });
    expect(new URL(again.headers.get('location')!).hash).toContain('error_code=otp_expired');
    const later = await client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(later.error).toBeNull();
    expect(later.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('confirms with the code of the mail, in the saved locale', async () => {
    const email = uniqueEmail('confirm');
    await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { ...PROFILE, locale: 'en' }, emailRedirectTo: `${APP}/sign-in` },
    });
    const mail = await waitForMailAt(stack.mailboxUrl, email);
    expect(mail.subject).toBe('Kiraa: confirm your email address');
    const wrong = await client().auth.verifyOtp({ email, token: '00000000', type: 'email' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const { code } = parseAuthMail(mail.text);
    const { data, error } = await client().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it('tells nobody whether an address has an account: a second sign-up looks the same', async () => {
    const email = uniqueEmail('confirm');
    const first = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: PROFILE },
    });
    const { code } = parseAuthMail((await waitForMailAt(stack.mailboxUrl, email)).text);
    await client().auth.verifyOtp({ email, token: code, type: 'email' });

    const second = await client().auth.signUp({
      email,
      password: 'Other-pass2!',
      options: { data: PROFILE },
    });
    expect(second.error).toBeNull();
    expect(second.data.session).toBeNull();
    expect(second.data.user?.id).not.toBe(first.data.user?.id);
    expect(second.data.user?.identities).toEqual([]);
    // No second mail, and the password did not change.
    expect(await fetchMails(stack.mailboxUrl, email)).toHaveLength(1);
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
  });

  it('changes an e-mail address once both addresses confirm (double_confirm_changes)', async () => {
    const email = uniqueEmail('change');
    const c = client();
    await c.auth.signUp({ email, password: PASSWORD, options: { data: PROFILE } });
    const { code } = parseAuthMail((await waitForMailAt(stack.mailboxUrl, email)).text);
    await c.auth.verifyOtp({ email, token: code, type: 'email' });
    const next = uniqueEmail('changed');
    const asked = await c.auth.updateUser({ email: next });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ email, new_email: next });

    const toNew = parseAuthMail((await waitForMailAt(stack.mailboxUrl, next)).text);
    const first = await fetch(toNew.link, { redirect: 'manual' });
    const firstHash = new URLSearchParams(new URL(first.headers.get('location')!).hash.slice(1));
    expect(firstHash.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    expect((await c.auth.getUser()).data.user?.email).toBe(email);

    const mails = await fetchMails(stack.mailboxUrl, email);
    const toOld = parseAuthMail(
      mails.find((m) => m.subject.includes('adresse e-mail') && m.text.includes('changer'))!.text,
    );
    const { data, error } = await client().auth.verifyOtp({
      email,
      token: toOld.code,
      type: 'email_change',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(next);
  });

  it('says so in GET /settings', async () => {
    const res = await fetch(`${stack.apiUrl}/auth/v1/settings`, {
      headers: { apikey: stack.anonKey },
    });
    expect(await res.json()).toMatchObject({ mailer_autoconfirm: false, disable_signup: false });
  });
});

/** A Send Email hook receiver that checks the Standard Webhooks signature as the standard says. */
function receiver(secret: string) {
  const calls: Array<{
    headers: IncomingHttpHeaders;
    body: Record<string, unknown>;
    valid: boolean;
  }> = [];
  const key = Buffer.from(secret.replace(/^v1,whsec_/, ''), 'base64');
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      const timestamp = String(req.headers['webhook-timestamp']);
      const expected = createHmac('sha256', key)
        .update(`${id}.${timestamp}.${raw}`)
        .digest('base64');
      const signatures = String(req.headers['webhook-signature'])
        .split(/[ ,]+/)
        .filter((s) => s !== 'v1');
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
      const valid = fresh && signatures.includes(expected);
      calls.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown>, valid });
      res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        valid ? '{}' : JSON.stringify({ error: { http_code: 401, message: 'bad signature' } }),
      );
    });
  });
  return { server, calls };
}

describe('the Send Email hook, called as GoTrue calls it', () => {
  const secret = `v1,whsec_${Buffer.from('kiraa-test-webhook-secret-32-bytes!').toString('base64')}`;
  const hook = receiver(secret);
  let stack: TestStack;
  const client = () => nodeClient(stack.apiUrl, stack.anonKey);

  beforeAll(async () => {
    await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
    const { port } = hook.server.address() as AddressInfo;
    stack = await startTestStack({
      settings: {
        auth: {
          email: { enableConfirmations: true },
          hooks: { sendEmail: { uri: `http://127.0.0.1:${port}/send-email`, secrets: secret } },
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => hook.server.close(resolve));
  });

  it('posts the sign-up confirmation, signed, and sends no mail itself', async () => {
    const email = uniqueEmail('hook');
    const { error } = await client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { ...PROFILE, locale: 'ar' }, emailRedirectTo: `${APP}/sign-in?lang=ar` },
    });
    expect(error).toBeNull();
    const call = hook.calls.at(-1)!;
    expect(call.valid).toBe(true);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.body).toMatchObject({
      user: { email, user_metadata: { locale: 'ar' } },
      email_data: {
        email_action_type: 'signup',
        redirect_to: `${APP}/sign-in?lang=ar`,
        site_url: stack.apiUrl,
        token_new: '',
        token_hash_new: '',
      },
    });
    const data = call.body.email_data as { token: string; token_hash: string };
    expect(data.token).toMatch(/^\d{8}$/);
    expect(await fetchMails(stack.mailboxUrl, email)).toHaveLength(0);

    // The link a receiver builds from it (GoTrue's) confirms the account.
    const link = new URL(`${stack.apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', data.token_hash);
    link.searchParams.set('type', 'signup');
    link.searchParams.set('redirect_to', `${APP}/sign-in`);
    const opened = await fetch(link, { redirect: 'manual' });
    expect(new URL(opened.headers.get('location')!).hash).toContain('access_token=');
  });

  it('posts the recovery mail too, and answers 500 like GoTrue when the receiver refuses', async () => {
    const email = uniqueEmail('hook');
    await client().auth.signUp({ email, password: PASSWORD, options: { data: PROFILE } });
    const { error } = await client().auth.resetPasswordForEmail(email, {
      redirectTo: `${APP}/reset-password?lang=en`,
    });
    expect(error).toBeNull();
    expect(hook.calls.at(-1)?.body).toMatchObject({
      email_data: { email_action_type: 'recovery', redirect_to: `${APP}/reset-password?lang=en` },
    });

    const broken = await startTestStack({
      settings: {
        auth: {
          hooks: {
            sendEmail: {
              uri: hook.calls[0]!.headers.host ? `http://${hook.calls[0]!.headers.host}/x` : '',
              secrets: `v1,whsec_${Buffer.from('another-secret-another-secret!!').toString('base64')}`,
            },
          },
        },
      },
    });
    try {
      const other = uniqueEmail('hook');
      await nodeClient(broken.apiUrl, broken.anonKey).auth.signUp({
        email: other,
        password: PASSWORD,
        options: { data: PROFILE },
      });
      const refused = await nodeClient(broken.apiUrl, broken.anonKey).auth.resetPasswordForEmail(
        other,
      );
      expect(refused.error).toMatchObject({ status: 500 });
    } finally {
      await broken.stop();
    }
  });
});
