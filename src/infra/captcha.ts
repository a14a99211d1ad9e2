/**
 * CAPTCHA for sign-up, sign-in and password recovery, when the hosted project turns on GoTrue's
 * CAPTCHA (supabase/config.toml [auth.captcha]): the app is then built with
 * VITE_CAPTCHA_PROVIDER (`hcaptcha` or `turnstile`) and VITE_CAPTCHA_SITE_KEY, loads the
 * provider's script on the auth screens and passes the token as supabase-js's `captchaToken`.
 * Unconfigured (the local stack, tests), everything here is inert: no script, no token.
 */
export type CaptchaProvider = 'hcaptcha' | 'turnstile';

export type CaptchaConfig = { provider: CaptchaProvider; siteKey: string };

type Env = { VITE_CAPTCHA_PROVIDER?: string; VITE_CAPTCHA_SITE_KEY?: string };

/** The build's CAPTCHA, or null when none is configured (or the provider is unknown). */
export function captchaConfig(env: Env = import.meta.env): CaptchaConfig | null {
  const provider = env.VITE_CAPTCHA_PROVIDER?.trim();
  const siteKey = env.VITE_CAPTCHA_SITE_KEY?.trim();
  if (!siteKey || (provider !== 'hcaptcha' && provider !== 'turnstile')) return null;
  return { provider, siteKey };
}

const SCRIPTS: Record<CaptchaProvider, string> = {
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
};

type Widgets = {
  render(container: HTMLElement, options: Record<string, unknown>): string | number;
  execute?(id: string | number, options?: Record<string, unknown>): unknown;
  reset(id?: string | number): void;
};

const loading = new Map<CaptchaProvider, Promise<Widgets>>();

function providerApi(provider: CaptchaProvider): Widgets | undefined {
  return (window as unknown as Record<string, Widgets | undefined>)[provider];
}

function loadProvider(config: CaptchaConfig): Promise<Widgets> {
  const { provider } = config;
  let pending = loading.get(provider);
  if (pending) return pending;
  const loaded = providerApi(provider);
  pending = loaded
    ? Promise.resolve(loaded)
    : new Promise<Widgets>((resolve, reject) => {
        const script = document.createElement('script');
        script.src = SCRIPTS[provider];
        script.async = true;
        script.onload = () => {
          const api = providerApi(provider);
          if (api) resolve(api);
          else reject(new Error(`${provider} did not load`));
        };
        script.onerror = () => {
          loading.delete(provider);
          reject(new Error(`${provider} could not be loaded`));
        };
        document.head.append(script);
      });
  loading.set(provider, pending);
  return pending;
}

/**
 * The widget's options: hCaptcha's invisible size; Turnstile (no invisible size, it refuses
 * unknown values) runs on `execute()` and appears only when it needs the person.
 */
function widgetOptions(
  config: CaptchaConfig,
  callback: (token: string) => void,
  onError: () => void,
): Record<string, unknown> {
  const common = { sitekey: config.siteKey, callback, 'error-callback': onError };
  return config.provider === 'hcaptcha'
    ? { ...common, size: 'invisible' }
    : { ...common, execution: 'execute', appearance: 'interaction-only' };
}

/**
 * A fresh token for one auth call, or undefined when no CAPTCHA is configured. The widget runs
 * in an element of its own, removed afterwards; the provider shows its challenge when it needs
 * one (hCaptcha in its own overlay, so its element stays hidden).
 */
export async function captchaToken(config = captchaConfig()): Promise<string | undefined> {
  if (!config) return undefined;
  const api = await loadProvider(config);
  const host = document.createElement('div');
  host.hidden = config.provider === 'hcaptcha';
  document.body.append(host);
  try {
    return await new Promise<string>((resolve, reject) => {
      const id = api.render(
        host,
        widgetOptions(config, resolve, () => reject(new Error('CAPTCHA failed'))),
      );
      api.execute?.(id);
    });
  } finally {
    host.remove();
  }
}
