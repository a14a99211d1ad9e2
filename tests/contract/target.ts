/**
 * Where the contract suite runs: a hosted project when SUPABASE_URL, SUPABASE_ANON_KEY and
 * SUPABASE_SERVICE_ROLE_KEY are set (SUPABASE_JWT_SECRET optional: the rows that forge tokens need
 * it; SUPABASE_CONTRACT_EMAIL_DOMAIN required: GoTrue's extended e-mail validation refuses
 * reserved domains such as `.test`, so the users get addresses at a domain you receive mail for),
 * else a local stack started here with supabase/config.toml as it is (e-mail confirmation on, as
 * on the hosted project). Vitest global setup of the `contract` project.
 */
import type { TestProject } from 'vitest/node';

import { startTestStack } from '../support/stack.ts';

export type ContractTarget = {
  kind: 'local' | 'hosted';
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string | null;
  /** The domain of the users' addresses (`kiraa.test` on the local stack). */
  emailDomain: string;
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
    project.provide('contractTarget', {
      kind: 'hosted',
      url: env.SUPABASE_URL.replace(/\/+$/, ''),
      anonKey: env.SUPABASE_ANON_KEY,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      jwtSecret: env.SUPABASE_JWT_SECRET || null,
      emailDomain,
    });
    console.info(`Contract: hosted project ${env.SUPABASE_URL}`);
    return async () => {};
  }
  // config.toml as it is: the hosted settings (confirmation on), not the API tests' overrides.
  const stack = await startTestStack({
    settings: { auth: { email: { enableConfirmations: true } } },
    trustProxyHeaders: false,
  });
  project.provide('contractTarget', {
    kind: 'local',
    url: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
    emailDomain: 'kiraa.test',
  });
  console.info(`Contract: local stack at ${stack.apiUrl} (${stack.engine})`);
  return () => stack.stop();
}
