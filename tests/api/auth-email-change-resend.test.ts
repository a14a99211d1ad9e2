/**
 * POST /resend {type: 'email_change'} through supabase-js `auth.resend` (supabase/local/auth/otp.ts,
 * docs/auth.md, "Endpoints"): fresh codes for the pending change, the earlier ones stop
 * working (GoTrue's sendEmailChange overwrites them), one mail per `max_frequency`, nothing for an
 * account without a pending change. On both engines (`npm run test:api`, `npm run test:api:pg`).
 */
import { describe, expect, it } from 'vitest';

import { mailsTo, sql, uniqueEmail, waitForMail } from '../support/clients.ts';
import { newCustomer, visitor } from '../support/fixtures.ts';
import { parseAuthMail } from '../support/supabase.ts';

async function codeMailed(email: string, after: number): Promise<string> {
  const mail = await waitForMail(email, (m) => Date.parse(m.createdAt) >= after - 1000);
  return parseAuthMail(mail.text).code;
}

/** Lets max_frequency (60 s in config.toml) pass for the pending change. */
async function olderChange(userId: string): Promise<void> {
  await sql(
    `update auth.users set email_change_sent_at = now() - interval '2 minutes' where id = $1`,
    [userId],
  );
}

describe('resending the e-mail change codes', () => {
  it('mails a new code that applies the change; the earlier code no longer does', async () => {
    const customer = await newCustomer();
    const next = uniqueEmail('resent');
    const asked = Date.now();
    expect((await customer.client.auth.updateUser({ email: next })).error).toBeNull();
    const first = await codeMailed(next, asked);
    expect(first).toMatch(/^\d{8}$/);

    await olderChange(customer.id);
    await new Promise((r) => setTimeout(r, 1100));
    const resentAt = Date.now();
    const resent = await visitor().auth.resend({ type: 'email_change', email: customer.email });
    expect(resent.error).toBeNull();
    const second = await waitForMail(next, (m) => Date.parse(m.createdAt) >= resentAt - 200);
    const code = parseAuthMail(second.text).code;
    expect(code).toMatch(/^\d{8}$/);
    // The current address gets its own fresh code too (double_confirm_changes).
    const atCurrent = await mailsTo(customer.email);
    expect(atCurrent.some((m) => Date.parse(m.createdAt) >= resentAt - 200)).toBe(true);

    if (code !== first) {
      const old = await customer.client.auth.verifyOtp({
        email: next,
        token: first,
        type: 'email_change',
      });
      expect(old.error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const done = await customer.client.auth.verifyOtp({
      email: next,
      token: code,
      type: 'email_change',
    });
    expect(done.error).toBeNull();
    expect(done.data.session?.user.email).toBe(next);
  });

  it('sends at most one mail per max_frequency', async () => {
    const customer = await newCustomer();
    const next = uniqueEmail('resent-fast');
    expect((await customer.client.auth.updateUser({ email: next })).error).toBeNull();
    const tooSoon = await visitor().auth.resend({ type: 'email_change', email: customer.email });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(tooSoon.error?.message).toMatch(/after \d+ seconds/);
    const [row] = await sql<{ email_change: string }>(
      `select email_change from auth.users where id = $1`,
      [customer.id],
    );
    expect(row!.email_change).toBe(next);
  });

  it('answers {} and mails nothing without a pending change or for an unknown address', async () => {
    const customer = await newCustomer();
    const before = (await mailsTo(customer.email)).length;
    const none = await visitor().auth.resend({ type: 'email_change', email: customer.email });
    expect(none.error).toBeNull();
    const unknown = uniqueEmail('nobody');
    const nobody = await visitor().auth.resend({ type: 'email_change', email: unknown });
    expect(nobody.error).toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect((await mailsTo(customer.email)).length).toBe(before);
    expect(await mailsTo(unknown)).toEqual([]);
  });
});
