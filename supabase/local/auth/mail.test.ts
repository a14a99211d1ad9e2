import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { webhookSignatures } from './auth-mail.ts';
import { mailLocale, pickLocale, recoveryMail } from './mail.ts';

describe('pickLocale', () => {
  it.each([
    [undefined, 'fr'],
    ['*', 'fr'],
    ['de-DE,de;q=0.9', 'fr'],
    ['ar-DZ,ar;q=0.9,fr;q=0.8', 'ar'],
    ['en-GB,en;q=0.9,ar;q=0.8', 'en'],
    ['de;q=1, en;q=0.4, fr;q=0.7', 'fr'],
    ['ar;q=0, en', 'en'],
  ] as const)('%j → %s', (header, locale) => {
    expect(pickLocale(header)).toBe(locale);
  });
});

describe('recoveryMail', () => {
  const base = {
    to: 'lina@kiraa.dz',
    name: 'Lina',
    link: 'http://localhost:54321/auth/v1/verify?token=abc&type=recovery&redirect_to=x',
    code: '042917',
    validForSeconds: 3600,
  };

  it('carries the link and the code in each language', () => {
    for (const locale of ['fr', 'en', 'ar'] as const) {
      const mail = recoveryMail({ ...base, locale });
      expect(mail.to).toBe('lina@kiraa.dz');
      expect(mail.text).toContain(base.link);
      expect(mail.text).toContain('042917');
      expect(mail.html).toContain(
        'href="http://localhost:54321/auth/v1/verify?token=abc&amp;type=recovery&amp;redirect_to=x"',
      );
    }
    expect(recoveryMail({ ...base, locale: 'fr' }).text).toContain('valable 1 heure');
    expect(recoveryMail({ ...base, locale: 'en', validForSeconds: 1800 }).text).toContain(
      'valid for 30 minutes',
    );
    expect(recoveryMail({ ...base, locale: 'ar' }).html).toContain('dir="rtl"');
  });

  it('greets without a name and escapes what the user typed', () => {
    expect(recoveryMail({ ...base, name: null, locale: 'fr' }).text.startsWith('Bonjour,\n')).toBe(
      true,
    );
    const mail = recoveryMail({ ...base, name: '<img src=x onerror=alert(1)>', locale: 'en' });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('mailLocale', () => {
  it("takes the redirect's lang, then the saved locale, then Accept-Language", () => {
    expect(mailLocale('http://localhost:4173/sign-in?lang=ar', { locale: 'en' }, 'fr')).toBe('ar');
    expect(mailLocale('http://localhost:4173/sign-in?lang=de', { locale: 'en' }, 'fr')).toBe('en');
    expect(mailLocale('http://localhost:4173/sign-in', null, 'en-GB,en;q=0.9')).toBe('en');
    expect(mailLocale('not a url', { locale: 42 }, undefined)).toBe('fr');
  });
});

describe('webhookSignatures (Standard Webhooks, as GoTrue signs its HTTP hooks)', () => {
  it('signs id.timestamp.payload with the base64 key of each v1,whsec_ secret', () => {
    const key = Buffer.from('a-secret-key-of-some-length');
    const secret = `v1,whsec_${key.toString('base64')}`;
    const [signature] = webhookSignatures(secret, 'msg_1', 1700000000, '{"a":1}');
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(signature).toBe(`v1,${expected}`);
    expect(webhookSignatures(`${secret}|${secret}`, 'm', 1, '')).toHaveLength(2);
    expect(() => webhookSignatures('whsec_abc', 'm', 1, '')).toThrow(/v1,whsec_/);
  });
});
