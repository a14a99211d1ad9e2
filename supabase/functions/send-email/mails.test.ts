/**
 * The auth mails' texts and rules (the Send Email hook's function; the local auth service renders
 * with the same code). The hook's HTTP side is tested against the real Deno in
 * tests/api/functions.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { authMails, pickLocale, verifyLink, type EmailData } from './mails.ts';

const SITE = 'http://localhost:54321';

function recovery(locale: string | null, extra: Partial<EmailData> = {}, name: unknown = 'Lina') {
  const mails = authMails(
    { email: 'lina@kiraa.dz', user_metadata: { name, ...(locale ? { locale } : {}) } },
    {
      email_action_type: 'recovery',
      token: '04291755',
      token_hash: 'abc',
      redirect_to: 'http://localhost:4173/reset-password',
      site_url: SITE,
      ...extra,
    },
    3600,
  );
  expect(mails).toHaveLength(1);
  return mails![0]!;
}

describe('pickLocale', () => {
  it("takes the redirect's lang, then the saved locale, then French", () => {
    expect(pickLocale('http://localhost:4173/sign-in?lang=ar', { locale: 'en' })).toBe('ar');
    expect(pickLocale('http://localhost:4173/sign-in?lang=de', { locale: 'en' })).toBe('en');
    expect(pickLocale('http://localhost:4173/sign-in', null)).toBe('fr');
    expect(pickLocale('not a url', { locale: 42 })).toBe('fr');
    expect(pickLocale(undefined, { locale: 'ar' })).toBe('ar');
  });
});

describe('verifyLink (GoTrue’s templatemailer)', () => {
  it('puts the link on the auth API and escapes the redirect only when it holds & = or #', () => {
    expect(verifyLink(SITE, 'tok', 'recovery', 'http://localhost:4173/reset-password')).toBe(
      `${SITE}/auth/v1/verify?token=tok&type=recovery&redirect_to=http://localhost:4173/reset-password`,
    );
    expect(verifyLink(`${SITE}/auth/v1/`, 'tok', 'signup', 'http://a/?lang=en')).toBe(
      `${SITE}/auth/v1/verify?token=tok&type=signup&redirect_to=http%3A%2F%2Fa%2F%3Flang%3Den`,
    );
  });
});

describe('authMails', () => {
  it('carries the link and the code in each language', () => {
    for (const locale of ['fr', 'en', 'ar'] as const) {
      const mail = recovery(locale);
      expect(mail.to).toBe('lina@kiraa.dz');
      expect(mail.text).toContain(
        `${SITE}/auth/v1/verify?token=abc&type=recovery&redirect_to=http://localhost:4173/reset-password`,
      );
      expect(mail.text).toContain('04291755');
      expect(mail.html).toContain(
        `href="${SITE}/auth/v1/verify?token=abc&amp;type=recovery&amp;redirect_to=http://localhost:4173/reset-password"`,
      );
      expect(mail.html).toContain(
        `<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`,
      );
    }
    expect(recovery('fr').text).toContain('valable 1 heure');
    const short = authMails(
      { email: 'a@kiraa.dz', user_metadata: { locale: 'en' } },
      { email_action_type: 'recovery', token: '1', token_hash: 'h', site_url: SITE },
      1800,
    );
    expect(short![0]!.text).toContain('valid for 30 minutes');
  });

  it('holds no text the requester chose: no name, whatever the sign-up data say', () => {
    const bait = 'Refund 9000 DZD: https://evil.example/r';
    for (const locale of ['fr', 'en', 'ar']) {
      const mail = recovery(locale, {}, bait);
      expect(mail.text).not.toContain('evil');
      expect(mail.html).not.toContain('evil');
      expect(mail.text.split('\n')[0]).toBe({ fr: 'Bonjour,', en: 'Hello,', ar: 'مرحبًا،' }[locale]);
    }
    const change = authMails(
      { email: 'old@kiraa.dz', new_email: 'new@kiraa.dz', user_metadata: { name: bait } },
      {
        email_action_type: 'email_change',
        token: '1',
        token_hash: 'h',
        token_new: '2',
        token_hash_new: 'h2',
        site_url: SITE,
      },
      3600,
    )!;
    expect(change).toHaveLength(2);
    for (const mail of change) expect(mail.text + mail.html).not.toContain('evil');
  });

  it('mails an e-mail change to the new address, and to the current one with secure change', () => {
    const user = { email: 'old@kiraa.dz', new_email: 'new@kiraa.dz', user_metadata: {} };
    const secure = authMails(
      user,
      {
        email_action_type: 'email_change',
        token: '11111111',
        token_hash: 'hash-new',
        token_new: '22222222',
        token_hash_new: 'hash-current',
        site_url: SITE,
      },
      3600,
    )!;
    expect(secure.map((m) => [m.to, m.subject])).toEqual([
      ['new@kiraa.dz', 'Kiraa : confirmez votre nouvelle adresse e-mail'],
      ['old@kiraa.dz', "Kiraa : confirmez le changement d'adresse e-mail"],
    ]);
    expect(secure[0]!.text).toMatch(/token=hash-new&[\s\S]*22222222/);
    expect(secure[1]!.text).toMatch(/token=hash-current&[\s\S]*11111111/);

    const single = authMails(
      user,
      { email_action_type: 'email_change', token: '33333333', token_hash: 'h', site_url: SITE },
      3600,
    )!;
    expect(single).toHaveLength(1);
    expect(single[0]!.to).toBe('new@kiraa.dz');
    expect(single[0]!.text).toContain('33333333');
  });

  it('writes code-only mails without a link, and refuses an unknown type', () => {
    const [code] = authMails(
      { email: 'a@kiraa.dz' },
      { email_action_type: 'reauthentication', token: '424242', site_url: SITE },
      3600,
    )!;
    expect(code!.text).toContain('Votre code : 424242');
    expect(code!.text).not.toContain('/verify');
    expect(authMails({ email: 'a@kiraa.dz' }, { email_action_type: 'sms' }, 3600)).toBeNull();
  });
});
