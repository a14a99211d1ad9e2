import { describe, expect, it } from 'vitest';

import { captchaConfig, captchaToken } from '@/lib/captcha';

describe('captcha', () => {
  it('is inert without a configured provider and site key: no token, no script', async () => {
    expect(captchaConfig({})).toBeNull();
    expect(captchaConfig({ VITE_CAPTCHA_PROVIDER: 'turnstile' })).toBeNull();
    expect(
      captchaConfig({ VITE_CAPTCHA_PROVIDER: 'recaptcha', VITE_CAPTCHA_SITE_KEY: 'k' }),
    ).toBeNull();
    const before = document.scripts.length;
    expect(await captchaToken(null)).toBeUndefined();
    expect(await captchaToken()).toBeUndefined();
    expect(document.scripts.length).toBe(before);
  });

  it('reads the provider and the site key of the build', () => {
    expect(
      captchaConfig({ VITE_CAPTCHA_PROVIDER: ' hcaptcha ', VITE_CAPTCHA_SITE_KEY: 'site-key' }),
    ).toEqual({ provider: 'hcaptcha', siteKey: 'site-key' });
  });
});
