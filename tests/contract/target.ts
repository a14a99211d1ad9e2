/**
 * Where the contract suite runs: a hosted project when SUPABASE_URL, SUPABASE_ANON_KEY and
 * SUPABASE_SERVICE_ROLE_KEY are set (SUPABASE_JWT_SECRET optional: the rows that forge tokens need
 * it; SEND_EMAIL_HOOK_SECRET optional: the rows that call send-email as GoTrue does need it; SUPABASE_CONTRACT_EMAIL_DOMAIN required: GoTrue's extended e-mail validation refuses
 * reserved domains such as `.test`, so the users get addresses at a domain you receive mail for),
 * else a local stack started here with supabase/config.toml as it is (e-mail confirmation on, as
 * on the hosted project). Vitest global setup of the `contract` project.
 */
import type { TestProject } from 'vitest/node';

import { localPlan } from '../../supabase/local/settings.ts';
import { startTestStack } from '../support/stack.ts';

export type ContractTarget = {
  kind: 'local' | 'hosted';
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string | null;
  /** The domain of the users' addresses (`kiraa.test` on the local stack). */
  emailDomain: string;
  /** The Send Email hook's secret (`v1,whsec_…`): the rows that call send-email as GoTrue does. */
  sendEmailHookSecret: string | null;
  /** The local dev mailbox (null on hosted: mails go to the real addresses). */
  mailboxUrl: string | null;
  /** The project's plan: the Password Verification Attempt hook needs Team or Enterprise. */
  plan: 'free' | 'pro' | 'team' | 'enterprise';
  /**
   * A CAPTCHA token the project accepts, sent with sign-ups, sign-ins and recoveries (a hosted
   * project pushed with CAPTCHA on: Turnstile's always-passing test secret and its dummy token).
   */
  captchaToken: string | null;
};

declare module 'vitest' {
  export interface ProvidedContext {
    contractTarget: ContractTarget;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  if (env.SUPABASE_URL) {
    if (!env.SUPABASE_ANON_KEY || !env.SUPABASE_SERVICE_ROLE_KEY) {
      throw new Error(
        'The hosted contract run needs SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY.',
      );
    }
    const emailDomain = env.SUPABASE_CONTRACT_EMAIL_DOMAIN?.trim().replace(/^@/, '');
    if (!emailDomain || /\.(test|example|invalid|localhost)$/i.test(emailDomain)) {
      throw new Error(
        'The hosted contract run needs SUPABASE_CONTRACT_EMAIL_DOMAIN: a domain with mail (MX) whose mails may be sent (the extended e-mail validation refuses .test, .example, .invalid addresses).',
      );
    }
    const plan = env.SUPABASE_CONTRACT_PLAN;
    if (plan !== 'free' && plan !== 'pro' && plan !== 'team' && plan !== 'enterprise') {
      throw new Error(
        'The hosted contract run needs SUPABASE_CONTRACT_PLAN: free, pro, team or enterprise (the account lockout hook needs team or enterprise).',
      );
    }
    project.provide('contractTarget', {
      kind: 'hosted',
      plan,
      captchaToken: env.SUPABASE_CONTRACT_CAPTCHA_TOKEN || null,
      url: env.SUPABASE_URL.replace(/\/+$/, ''),
      anonKey: env.SUPABASE_ANON_KEY,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      jwtSecret: env.SUPABASE_JWT_SECRET || null,
      emailDomain,
      sendEmailHookSecret: env.SEND_EMAIL_HOOK_SECRET || null,
      mailboxUrl: null,
    });
    console.info(`Contract: hosted project ${env.SUPABASE_URL}`);
    return async () => {};
  }
  // config.toml as it is: the hosted settings (confirmation on), not the API tests' overrides.
  // The plan the local stack plays (test stacks read no environment, so it is passed on here).
  const plan = localPlan(process.env);
  const teamOnly = plan === 'team' ? {} : { passwordVerificationAttempt: null };
  const stack = await startTestStack({
    settings: { auth: { email: { enableConfirmations: true }, hooks: teamOnly } },
    trustProxyHeaders: false,
    // The per-address limits apply to this machine too, as on hosted (the rows stay within them).
    authEnv: { KIRAA_AUTH_IP_LIMITS_FOR_LOOPBACK: 'on' },
  });
  project.provide('contractTarget', {
    kind: 'local',
    // The local stack plays a Team project unless KIRAA_LOCAL_PLAN says otherwise.
    plan,
    captchaToken: null,
    url: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
    emailDomain: 'kiraa.test',
    sendEmailHookSecret: stack.functionSecrets.SEND_EMAIL_HOOK_SECRET ?? null,
    mailboxUrl: stack.mailboxUrl,
  });
  console.info(`Contract: local stack at ${stack.apiUrl} (${stack.engine})`);
  return () => stack.stop();
}
