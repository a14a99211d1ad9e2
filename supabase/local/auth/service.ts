/**
 * What every endpoint of the auth API shares: the stack context, the options and the rate-limit
 * counters.
 */
import type { IncomingMessage } from 'node:http';

import type { ServiceContext } from '../context.ts';
import { clientIp, tooManyRequests } from './http.ts';
import type { AuthOptions, Limit } from './options.ts';
import type { Origin } from './sessions.ts';
import type { LimitDecision } from './rate-limit.ts';
import { SlidingWindowLimiter } from './rate-limit.ts';

export type Limiters = {
  signUpsPerIp: SlidingWindowLimiter;
  /** Password and refresh-token grants together: GoTrue's token limiter. */
  tokenGrantsPerIp: SlidingWindowLimiter;
  verificationsPerIp: SlidingWindowLimiter;
  otpFailuresPerEmail: SlidingWindowLimiter;
  recoveriesPerIp: SlidingWindowLimiter;
  /** One recovery mail per address per `recoveryIntervalSeconds` (config.toml max_frequency). */
  recoveryPerEmail: SlidingWindowLimiter;
  /** One sign-up confirmation mail per address per the same interval. */
  confirmationPerEmail: SlidingWindowLimiter;
};

export type AuthService = {
  ctx: ServiceContext;
  options: AuthOptions;
  limits: Limiters;
};

/** 127.0.0.0/8 and ::1: the machine the stack runs on. */
export function isLoopback(ip: string): boolean {
  return ip === '::1' || /^127\.\d+\.\d+\.\d+$/.test(ip);
}

export function createLimiters(options: AuthOptions, now: () => number = Date.now): Limiters {
  const on = options.rateLimits;
  const perAccount = (limit: Limit) => new SlidingWindowLimiter(limit, on, now);
  const perIp = (limit: Limit) =>
    new SlidingWindowLimiter(limit, on, now, (ip) =>
      options.exemptLoopbackFromIpLimits ? isLoopback(ip) : false,
    );
  return {
    signUpsPerIp: perIp(options.signUpsPerIp),
    tokenGrantsPerIp: perIp(options.tokenGrantsPerIp),
    verificationsPerIp: perIp(options.verificationsPerIp),
    otpFailuresPerEmail: perAccount(options.otpFailuresPerEmail),
    recoveriesPerIp: perIp(options.recoveriesPerIp),
    recoveryPerEmail: perAccount({ max: 1, windowSeconds: options.recoveryIntervalSeconds }),
    confirmationPerEmail: perAccount({ max: 1, windowSeconds: options.recoveryIntervalSeconds }),
  };
}

/** GoTrue's answer when a request-rate limit is reached: 429 `over_request_rate_limit`. */
export function assertAllowed(decision: LimitDecision): void {
  if (!decision.allowed) {
    throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
  }
}

export function originOf(req: IncomingMessage): Origin {
  const agent = req.headers['user-agent'];
  return { ip: clientIp(req), userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null };
}
