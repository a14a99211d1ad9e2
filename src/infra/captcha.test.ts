import { describe, expect, it } from 'vitest';

import { captchaConfig, captchaToken, type CaptchaProvider } from '@/infra/captcha';

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

  it.each<[CaptchaProvider, Record<string, unknown>]>([
    ['hcaptcha', { size: 'invisible' }],
    ['turnstile', { execution: 'execute', appearance: 'interaction-only' }],
  ])('runs the %s widget of the page for one token, then removes it', async (provider, mode) => {
    const seen: Record<string, unknown>[] = [];
    const widgets = {
      render(host: HTMLElement, options: Record<string, unknown>) {
        expect(host.isConnected).toBe(true);
        seen.push(options);
        return 'w1';
      },
      execute(id: string) {
        expect(id).toBe('w1');
        (seen.at(-1)!.callback as (token: string) => void)(`${provider}-token`);
      },
      reset() {},
    };
    Object.assign(window, { [provider]: widgets });
    const children = document.body.children.length;
    try {
      expect(await captchaToken({ provider, siteKey: 'site-key' })).toBe(`${provider}-token`);
    } finally {
      Reflect.deleteProperty(window, provider);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ sitekey: 'site-key', ...mode });
    if (provider === 'turnstile') expect(seen[0]).not.toHaveProperty('size');
    expect(document.body.children.length).toBe(children);
  });
});
