/**
 * Tunables of the local auth API: rate limits, token lifetimes, bcrypt cost. They come from
 * supabase/config.toml ([auth], [auth.rate_limit], [auth.email]: `authOptionsFromSettings`), the
 * rest are GoTrue's defaults or, where GoTrue has none, the stricter local numbers of docs/auth.md;
 * every one can be changed with a `KIRAA_AUTH_*` environment variable so tests and benchmarks can
 * make them tighter or looser.
 */
import type { ProjectSettings } from '../settings.ts';

/** At most `max` events per sliding window of `windowSeconds`. */
export type Limit = { max: number; windowSeconds: number };

export type AuthOptions = {
  /** Sign-up requests per client IP (GoTrue's RATE_LIMIT_OTP, config.toml `sign_in_sign_ups`). */
  signUpsPerIp: Limit;
  /**
   * Password sign-ins and refresh-token grants together per client IP: GoTrue's Token handler
   * (internal/api/token.go) takes both from one limiter, RATE_LIMIT_TOKEN_REFRESH (config.toml
   * `token_refresh`). Failures per account are counted in SQL by the Password Verification
   * Attempt hook where the plan has it (docs/deployment.md).
   */
  tokenGrantsPerIp: Limit;
  /** Verification requests (links and codes) per client IP (GoTrue's RATE_LIMIT_VERIFY). */
  verificationsPerIp: Limit;
  /** Wrong recovery codes per email before further codes are refused (stricter than GoTrue). */
  otpFailuresPerEmail: Limit;
  /** Recovery mails per client IP (stricter than GoTrue). */
  recoveriesPerIp: Limit;
  /** Minimum seconds between two recovery mails to one address (GoTrue's SMTP_MAX_FREQUENCY). */
  recoveryIntervalSeconds: number;
  /** Lifetime of a recovery link or code (GoTrue's MAILER_OTP_EXP). */
  recoveryTokenTtlSeconds: number;
  /** A rotated refresh token may still be exchanged this long after it was used. */
  refreshTokenReuseIntervalSeconds: number;
  /** bcrypt cost of new password hashes (GoTrue uses bcrypt.DefaultCost, 10). */
  bcryptCost: number;
  /** When false, no rate limit applies at all (benchmarks). */
  rateLimits: boolean;
  /**
   * Per-IP limits skip loopback clients (the machine running the stack: the developer's browser,
   * the test suites). Per-account limits apply to everyone.
   */
  exemptLoopbackFromIpLimits: boolean;
};

export const DEFAULT_AUTH_OPTIONS: AuthOptions = {
  signUpsPerIp: { max: 30, windowSeconds: 300 },
  tokenGrantsPerIp: { max: 150, windowSeconds: 300 },
  verificationsPerIp: { max: 30, windowSeconds: 300 },
  otpFailuresPerEmail: { max: 5, windowSeconds: 3600 },
  recoveriesPerIp: { max: 30, windowSeconds: 3600 },
  recoveryIntervalSeconds: 60,
  recoveryTokenTtlSeconds: 3600,
  refreshTokenReuseIntervalSeconds: 10,
  bcryptCost: 10,
  rateLimits: true,
  exemptLoopbackFromIpLimits: true,
};

const LIMIT_VARS = {
  signUpsPerIp: 'KIRAA_AUTH_SIGN_UPS_PER_IP',
  tokenGrantsPerIp: 'KIRAA_AUTH_TOKEN_GRANTS_PER_IP',
  verificationsPerIp: 'KIRAA_AUTH_VERIFICATIONS_PER_IP',
  otpFailuresPerEmail: 'KIRAA_AUTH_OTP_FAILURES_PER_EMAIL',
  recoveriesPerIp: 'KIRAA_AUTH_RECOVERIES_PER_IP',
} as const satisfies Partial<Record<keyof AuthOptions, string>>;

const SECONDS_VARS = {
  recoveryIntervalSeconds: 'KIRAA_AUTH_RECOVERY_INTERVAL',
  recoveryTokenTtlSeconds: 'KIRAA_AUTH_RECOVERY_TOKEN_TTL',
  refreshTokenReuseIntervalSeconds: 'KIRAA_AUTH_REFRESH_TOKEN_REUSE_INTERVAL',
  bcryptCost: 'KIRAA_AUTH_BCRYPT_COST',
} as const satisfies Partial<Record<keyof AuthOptions, string>>;

/** The options config.toml sets, over the defaults. */
export function authOptionsFromSettings(
  auth: ProjectSettings['auth'],
  base: AuthOptions = DEFAULT_AUTH_OPTIONS,
): AuthOptions {
  const perFiveMinutes = (max: number): Limit => ({ max, windowSeconds: 300 });
  return {
    ...base,
    signUpsPerIp: perFiveMinutes(auth.rateLimit.signInSignUps),
    tokenGrantsPerIp: perFiveMinutes(auth.rateLimit.tokenRefresh),
    verificationsPerIp: perFiveMinutes(auth.rateLimit.tokenVerifications),
    recoveryIntervalSeconds: auth.email.maxFrequency,
    recoveryTokenTtlSeconds: auth.email.otpExpiry,
    refreshTokenReuseIntervalSeconds: auth.refreshTokenReuseInterval,
  };
}

function parseLimit(name: string, raw: string): Limit {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!match) throw new Error(`${name} must look like "<max>/<window seconds>", got "${raw}".`);
  const max = Number(match[1]);
  const windowSeconds = Number(match[2]);
  if (windowSeconds <= 0) throw new Error(`${name}: the window must be at least 1 second.`);
  return { max, windowSeconds };
}

function parseWholeNumber(name: string, raw: string): number {
  if (!/^\s*\d+\s*$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}".`);
  return Number(raw);
}

function parseSwitch(name: string, raw: string | undefined): boolean | null {
  if (raw === undefined || raw === '') return null;
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(raw)) {
    throw new Error(`${name} must be on or off, got "${raw}".`);
  }
  return ['on', 'true', '1'].includes(raw);
}

/**
 * Options from `KIRAA_AUTH_*` variables over the defaults (or over `base`). Limits are written
 * `max/windowSeconds` (`KIRAA_AUTH_TOKEN_GRANTS_PER_IP=3/60`), intervals in whole
 * seconds; `KIRAA_AUTH_RATE_LIMITS=off` disables every limit and
 * `KIRAA_AUTH_IP_LIMITS_FOR_LOOPBACK=on` applies the per-IP ones to loopback clients too. A malformed value throws, so a typo
 * never silently leaves a limit at its default.
 */
export function authOptionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  base: AuthOptions = DEFAULT_AUTH_OPTIONS,
): AuthOptions {
  const options: AuthOptions = { ...base };
  for (const [key, name] of Object.entries(LIMIT_VARS) as [keyof typeof LIMIT_VARS, string][]) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') options[key] = parseLimit(name, raw);
  }
  for (const [key, name] of Object.entries(SECONDS_VARS) as [keyof typeof SECONDS_VARS, string][]) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') options[key] = parseWholeNumber(name, raw);
  }
  const rateLimits = parseSwitch('KIRAA_AUTH_RATE_LIMITS', env.KIRAA_AUTH_RATE_LIMITS);
  if (rateLimits !== null) options.rateLimits = rateLimits;
  const loopback = parseSwitch(
    'KIRAA_AUTH_IP_LIMITS_FOR_LOOPBACK',
    env.KIRAA_AUTH_IP_LIMITS_FOR_LOOPBACK,
  );
  if (loopback !== null) options.exemptLoopbackFromIpLimits = !loopback;
  if (options.bcryptCost < 4 || options.bcryptCost > 31) {
    throw new Error('KIRAA_AUTH_BCRYPT_COST must be between 4 and 31.');
  }
  return options;
}
