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

let loading: Promise<Widgets> | null = null;

function loadProvider(config: CaptchaConfig): Promise<Widgets> {
  loading ??= new Promise<Widgets>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPTS[config.provider];
    script.async = true;
    script.onload = () => {
      const api = (window as unknown as Record<string, Widgets | undefined>)[config.provider];
      if (api) resolve(api);
      else reject(new Error(`${config.provider} did not load`));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error(`${config.provider} could not be loaded`));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * A fresh token for one auth call, or undefined when no CAPTCHA is configured. The widget runs
 * invisibly in a hidden element; the provider shows its own challenge when it needs one.
 */
export async function captchaToken(config = captchaConfig()): Promise<string | undefined> {
  if (!config) return undefined;
  const api = await loadProvider(config);
  const host = document.createElement('div');
  host.hidden = config.provider === 'hcaptcha';
  document.body.append(host);
  try {
    return await new Promise<string>((resolve, reject) => {
      const id = api.render(host, {
        sitekey: config.siteKey,
        size: 'invisible',
        callback: resolve,
        'error-callback': () => reject(new Error('CAPTCHA failed')),
      });
      api.execute?.(id);
    });
  } finally {
    host.remove();
  }
}
