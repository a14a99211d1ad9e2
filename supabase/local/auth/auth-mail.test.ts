import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { emailData, webhookSignatures } from './auth-mail.ts';

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

describe('emailData (GoTrue’s email_data)', () => {
  const API = 'http://localhost:54321/';
  const token = (name: string) => ({
    linkToken: `link-${name}`,
    code: `code-${name}`,
    actionLink: '',
  });

  it('carries the link token as token_hash and the code as token', () => {
    expect(
      emailData(API, { action: 'recovery', token: token('r'), redirectTo: 'http://x/?lang=ar' }),
    ).toEqual({
      token: 'code-r',
      token_hash: 'link-r',
      redirect_to: 'http://x/?lang=ar',
      email_action_type: 'recovery',
      site_url: 'http://localhost:54321',
      token_new: '',
      token_hash_new: '',
      old_email: '',
      old_phone: '',
      provider: '',
      factor_type: '',
    });
  });

  it('swaps an e-mail change’s hashes as GoTrue does: token_hash is the new address’s link', () => {
    const both = emailData(API, {
      action: 'email_change',
      token: token('new'),
      current: token('current'),
      redirectTo: '',
    });
    expect(both).toMatchObject({
      token: 'code-current',
      token_hash: 'link-new',
      token_new: 'code-new',
      token_hash_new: 'link-current',
    });
    // Confirmed at the new address only: token and token_hash are the new address's.
    const single = emailData(API, { action: 'email_change', token: token('new'), redirectTo: '' });
    expect(single).toMatchObject({
      token: 'code-new',
      token_hash: 'link-new',
      token_new: '',
      token_hash_new: '',
    });
  });
});
