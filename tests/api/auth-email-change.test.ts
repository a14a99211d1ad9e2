/**
 * The e-mail change with typed codes, as the account page does it (docs/accounts.md, "Account
 * settings"): PUT /user {email} mails a code to the new address (and one to the current one,
 * double_confirm_changes); POST /verify {type: 'email_change', email, token} applies it. On both
 * engines (`npm run test:api`, `npm run test:api:pg`).
 */
import { describe, expect, it } from 'vitest';

import { sql, testStack, uniqueEmail } from '../support/clients.ts';
import { newCustomer } from '../support/fixtures.ts';
import { waitForMailAt } from '../support/supabase.ts';

const codeOf = (text: string) => /\b(\d{8})\b/.exec(text)?.[1] ?? '';

async function askChange() {
  const customer = await newCustomer();
  const next = uniqueEmail('moved');
  const { error } = await customer.client.auth.updateUser({ email: next });
  expect(error).toBeNull();
  const mail = await waitForMailAt(testStack().mailboxUrl, next);
  return { customer, next, code: codeOf(mail.text) };
}

describe('e-mail change with a typed code', () => {
  it('applies with the code mailed to the new address, once; a wrong code changes nothing', async () => {
    const { customer, next, code } = await askChange();
    expect(code).toMatch(/^\d{8}$/);
    const wrong = String((Number(code) + 1) % 100_000_000).padStart(8, '0');
    const refused = await customer.client.auth.verifyOtp({
      email: next,
      token: wrong,
      type: 'email_change',
    });
    expect(refused.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const [still] = await sql<{ email: string }>(`select email from auth.users where id = $1`, [
      customer.id,
    ]);
    expect(still!.email).toBe(customer.email);

    const done = await customer.client.auth.verifyOtp({
      email: next,
      token: code,
      type: 'email_change',
    });
    expect(done.error).toBeNull();
    expect(done.data.session?.user.email).toBe(next);
    const again = await customer.client.auth.verifyOtp({
      email: next,
      token: code,
      type: 'email_change',
    });
    expect(again.error).toMatchObject({ code: 'otp_expired' });
  });

  it('refuses a code past otp_expiry', async () => {
    const { customer, next, code } = await askChange();
    await sql(
      `update auth.users set email_change_sent_at = now() - interval '2 hours' where id = $1`,
      [customer.id],
    );
    const late = await customer.client.auth.verifyOtp({
      email: next,
      token: code,
      type: 'email_change',
    });
    expect(late.error).toMatchObject({ code: 'otp_expired' });
    const [row] = await sql<{ email: string }>(`select email from auth.users where id = $1`, [
      customer.id,
    ]);
    expect(row!.email).toBe(customer.email);
  });

  it('refuses an address another account holds', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const { error } = await customer.client.auth.updateUser({ email: other.email });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});
