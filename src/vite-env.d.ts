/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL: string;
  readonly VITE_SUPABASE_ANON_KEY: string;
  /** CAPTCHA of sign-up, sign-in and recovery on a hosted project (src/infra/captcha.ts). */
  readonly VITE_CAPTCHA_PROVIDER?: string;
  readonly VITE_CAPTCHA_SITE_KEY?: string;
  /** Web Push: the VAPID public key push-send signs with (src/infra/push.ts). */
  readonly VITE_VAPID_PUBLIC_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

declare module '*.po' {
  export const messages: Record<string, string>;
}
