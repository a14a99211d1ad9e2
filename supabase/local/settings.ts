/**
 * supabase/config.toml, read the way the Supabase CLI reads it: one typed reader for the local
 * stack, so the settings a hosted project gets (`supabase config push`) are the settings the local
 * stack runs with. `env(NAME)` strings are replaced by the environment variable NAME (left as
 * they are when it is unset, as the CLI does). A setting the local stack cannot emulate stops it
 * with a message naming the setting (`UnsupportedSettingError`), instead of being ignored.
 */
import { readFileSync } from 'node:fs';

import { parse } from 'smol-toml';

import { PATHS } from './config.ts';
import {
  UnsupportedSettingError,
  type Table,
  substituteEnv,
  Reader,
  parseSize,
  parseDurationSeconds,
} from './settings-reader.ts';

export type HookSettings = { uri: string; secrets: string | null };

export type PasswordRequirements =
  '' | 'letters_digits' | 'lower_upper_letters_digits' | 'lower_upper_letters_digits_symbols';

export type ProjectSettings = {
  api: { port: number; schemas: string[]; extraSearchPath: string[]; maxRows: number };
  db: { port: number };
  storage: { fileSizeLimit: number };
  auth: {
    siteUrl: string;
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    refreshTokenReuseInterval: number;
    enableSignup: boolean;
    minimumPasswordLength: number;
    passwordRequirements: PasswordRequirements;
    rateLimit: {
      emailSent: number;
      tokenRefresh: number;
      signInSignUps: number;
      tokenVerifications: number;
    };
    email: {
      enableSignup: boolean;
      enableConfirmations: boolean;
      doubleConfirmChanges: boolean;
      /** A password change from a session older than 24 h needs GET /reauthenticate's code. */
      securePasswordChange: boolean;
      /** Seconds between two mails of one kind to one address. */
      maxFrequency: number;
      otpLength: number;
      otpExpiry: number;
    };
    captcha: {
      enabled: boolean;
      provider: 'hcaptcha' | 'turnstile';
      secret: string | null;
      /** The provider's siteverify URL (tests point it at a local verifier). */
      verifyUrl: string;
    };
    /** `[auth.mfa]`: TOTP only (phone and WebAuthn factors are refused). */
    mfa: { maxEnrolledFactors: number; totpEnroll: boolean; totpVerify: boolean };
    hooks: {
      beforeUserCreated: HookSettings | null;
      passwordVerificationAttempt: HookSettings | null;
      sendEmail: HookSettings | null;
    };
  };
};

const PASSWORD_REQUIREMENTS: PasswordRequirements[] = [
  '',
  'letters_digits',
  'lower_upper_letters_digits',
  'lower_upper_letters_digits_symbols',
];

/** Hooks GoTrue has that the local auth service does not call. */
const UNSUPPORTED_HOOKS = ['custom_access_token', 'send_sms', 'mfa_verification_attempt'];

function hook(auth: Reader, name: string, scheme: 'pg-functions' | 'http'): HookSettings | null {
  const reader = auth.at('hook').at(name);
  if (!reader.bool('enabled', false)) return null;
  const uri = reader.resolved('uri');
  const ok =
    scheme === 'http'
      ? /^https?:\/\//.test(uri)
      : /^pg-functions:\/\/[^/]+\/[^/]+\/[^/]+$/.test(uri);
  if (!ok) {
    throw new UnsupportedSettingError(
      `auth.hook.${name}.uri`,
      scheme === 'http'
        ? `the local auth service calls this hook over HTTP(S), got "${uri}"`
        : `expected pg-functions://<database>/<schema>/<function>, got "${uri}"`,
    );
  }
  const secrets = reader.has('secrets') ? reader.resolved('secrets') : null;
  return { uri, secrets };
}

/** Plans the local stack can play (KIRAA_LOCAL_PLAN); `team` unless told otherwise. */
export const LOCAL_PLANS = ['free', 'pro', 'team'] as const;
export type LocalPlan = (typeof LOCAL_PLANS)[number];

export function localPlan(env: NodeJS.ProcessEnv): LocalPlan {
  const value = env.KIRAA_LOCAL_PLAN ?? 'team';
  if (!(LOCAL_PLANS as readonly string[]).includes(value)) {
    throw new Error(`KIRAA_LOCAL_PLAN must be one of ${LOCAL_PLANS.join(', ')}, got "${value}".`);
  }
  return value as LocalPlan;
}

/**
 * A hook only some plans may register (the Password Verification Attempt hook: Team and
 * Enterprise). It is declared in `[remotes.team]`, never at the top, so `config push` to a Free or
 * Pro project does not mention it; the local stack plays the plan KIRAA_LOCAL_PLAN names and
 * takes the hook from that remote's block (a top-level declaration still wins).
 */
function planHook(doc: Reader, env: NodeJS.ProcessEnv, name: string): HookSettings | null {
  const top = hook(doc.at('auth'), name, 'pg-functions');
  if (top || doc.at('auth').at('hook').at(name).has('enabled')) return top;
  return hook(doc.at('remotes').at(localPlan(env)).at('auth'), name, 'pg-functions');
}

/** Refuses what the local stack cannot run with (instead of silently running without it). */
function refuseUnsupported(doc: Reader): void {
  const auth = doc.at('auth');
  const refuse = (setting: string, reason: string) => {
    throw new UnsupportedSettingError(setting, reason);
  };
  if (!auth.bool('enable_refresh_token_rotation', true)) {
    refuse(
      'auth.enable_refresh_token_rotation',
      'the local auth service always rotates refresh tokens.',
    );
  }
  if (auth.bool('enable_anonymous_sign_ins', false)) {
    refuse('auth.enable_anonymous_sign_ins', 'anonymous users are not emulated locally.');
  }
  if (auth.at('sms').bool('enabled', false) || auth.at('sms').bool('enable_signup', false)) {
    refuse('auth.sms', 'phone sign-ups are not emulated locally.');
  }
  for (const name of UNSUPPORTED_HOOKS) {
    if (auth.at('hook').at(name).bool('enabled', false)) {
      refuse(`auth.hook.${name}`, 'the local auth service does not call this hook.');
    }
  }
  const external = auth.at('external');
  for (const provider of external.keys()) {
    if (external.at(provider).bool('enabled', false)) {
      refuse(
        `auth.external.${provider}`,
        'OAuth providers cannot be reached from the local stack.',
      );
    }
  }
  for (const kind of ['phone', 'web_authn']) {
    const mfa = auth.at('mfa').at(kind);
    if (mfa.bool('enroll_enabled', false) || mfa.bool('verify_enabled', false)) {
      refuse(`auth.mfa.${kind}`, 'only TOTP factors are emulated locally.');
    }
  }
}

export type SettingsOverrides = {
  auth?: Partial<Omit<ProjectSettings['auth'], 'email' | 'hooks' | 'captcha' | 'rateLimit'>> & {
    email?: Partial<ProjectSettings['auth']['email']>;
    hooks?: Partial<ProjectSettings['auth']['hooks']>;
    captcha?: Partial<ProjectSettings['auth']['captcha']>;
    rateLimit?: Partial<ProjectSettings['auth']['rateLimit']>;
  };
};

/** Parses config.toml text into the settings the local stack uses. */
export function parseSettings(text: string, env: NodeJS.ProcessEnv = process.env): ProjectSettings {
  const doc = new Reader(substituteEnv(parse(text), env) as Table, '');
  const api = doc.at('api');
  const auth = doc.at('auth');
  const email = auth.at('email');
  const rate = auth.at('rate_limit');
  const captcha = auth.at('captcha');
  const requirements = auth.str('password_requirements', '') as PasswordRequirements;
  if (!PASSWORD_REQUIREMENTS.includes(requirements)) {
    throw new UnsupportedSettingError(
      'auth.password_requirements',
      `unknown value "${requirements}"`,
    );
  }
  const captchaEnabled = captcha.bool('enabled', false);
  const provider = captcha.str('provider', 'hcaptcha');
  if (provider !== 'hcaptcha' && provider !== 'turnstile') {
    throw new UnsupportedSettingError('auth.captcha.provider', 'hcaptcha or turnstile');
  }
  const settings: ProjectSettings = {
    api: {
      port: api.num('port', 54321),
      schemas: api.strings('schemas', ['public', 'graphql_public']),
      extraSearchPath: api.strings('extra_search_path', ['public', 'extensions']),
      maxRows: api.num('max_rows', 1000),
    },
    db: { port: doc.at('db').num('port', 54322) },
    storage: { fileSizeLimit: parseSize(doc.at('storage').str('file_size_limit', '50MiB')) },
    auth: {
      siteUrl: auth.resolved('site_url') || 'http://127.0.0.1:3000',
      additionalRedirectUrls: auth.strings('additional_redirect_urls', []),
      jwtExpiry: auth.num('jwt_expiry', 3600),
      refreshTokenReuseInterval: auth.num('refresh_token_reuse_interval', 10),
      enableSignup: auth.bool('enable_signup', true),
      minimumPasswordLength: auth.num('minimum_password_length', 6),
      passwordRequirements: requirements,
      rateLimit: {
        emailSent: rate.num('email_sent', 2),
        tokenRefresh: rate.num('token_refresh', 150),
        signInSignUps: rate.num('sign_in_sign_ups', 30),
        tokenVerifications: rate.num('token_verifications', 30),
      },
      email: {
        enableSignup: email.bool('enable_signup', true),
        enableConfirmations: email.bool('enable_confirmations', false),
        doubleConfirmChanges: email.bool('double_confirm_changes', true),
        securePasswordChange: email.bool('secure_password_change', false),
        maxFrequency: parseDurationSeconds(
          'auth.email.max_frequency',
          email.str('max_frequency', '1s'),
        ),
        otpLength: email.num('otp_length', 6),
        otpExpiry: email.num('otp_expiry', 3600),
      },
      mfa: {
        maxEnrolledFactors: auth.at('mfa').num('max_enrolled_factors', 10),
        totpEnroll: auth.at('mfa').at('totp').bool('enroll_enabled', false),
        totpVerify: auth.at('mfa').at('totp').bool('verify_enabled', false),
      },
      captcha: {
        enabled: captchaEnabled,
        provider,
        secret: captchaEnabled ? captcha.resolved('secret') : null,
        verifyUrl:
          provider === 'turnstile'
            ? 'https://challenges.cloudflare.com/turnstile/v0/siteverify'
            : 'https://hcaptcha.com/siteverify',
      },
      hooks: {
        beforeUserCreated: hook(auth, 'before_user_created', 'pg-functions'),
        passwordVerificationAttempt: planHook(doc, env, 'password_verification_attempt'),
        sendEmail: hook(auth, 'send_email', 'http'),
      },
    },
  };
  if (settings.auth.email.otpLength < 6 || settings.auth.email.otpLength > 10) {
    throw new UnsupportedSettingError('auth.email.otp_length', 'GoTrue takes 6 to 10 digits.');
  }
  refuseUnsupported(doc);
  return settings;
}

/** Settings with some values replaced (test stacks: e-mail confirmation on or off, a hook's URL). */
export function withOverrides(
  settings: ProjectSettings,
  overrides: SettingsOverrides = {},
): ProjectSettings {
  const auth = overrides.auth ?? {};
  return {
    ...settings,
    auth: {
      ...settings.auth,
      ...auth,
      email: { ...settings.auth.email, ...auth.email },
      hooks: { ...settings.auth.hooks, ...auth.hooks },
      captcha: { ...settings.auth.captcha, ...auth.captcha },
      rateLimit: { ...settings.auth.rateLimit, ...auth.rateLimit },
    },
  };
}

/** supabase/config.toml of this repository. */
export function loadSettings(
  file: string = PATHS.config,
  env: NodeJS.ProcessEnv = process.env,
): ProjectSettings {
  return parseSettings(readFileSync(file, 'utf8'), env);
}
