/**
 * Global setup of the Vitest `api` project: one local stack per run, shared by every API test
 * file (they run one after another). PGlite by default; a throwaway PostgreSQL cluster when
 * KIRAA_TEST_DB=postgres. Tests read the URLs and keys with `inject('kiraaStack')` (or the helpers
 * in ./clients.ts).
 *
 * When KIRAA_TEST_DB=postgres and no PostgreSQL server binaries exist on this machine, the whole
 * PostgreSQL run is skipped (every test reported as skipped) and the reason is printed.
 */
import type { TestProject } from 'vitest/node';

import { postgresUnavailableReason } from './postgres.ts';
import { stackInfo, startTestStack, testDbEngine, type TestStackInfo } from './stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's local stack. */
    kiraaStack: TestStackInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = testDbEngine();
  if (engine === 'postgres') {
    const reason = postgresUnavailableReason();
    if (reason) {
      console.warn(`\nKIRAA_TEST_DB=postgres: API tests skipped, ${reason}.\n`);
      // A name pattern that matches no test: every test (and its hooks) is skipped. Test files
      // are still collected, so they get a stack description that leads nowhere.
      project.config.testNamePattern = /^(?!)/;
      project.provide('kiraaStack', {
        apiUrl: 'http://skipped.invalid',
        postgrestUrl: 'http://skipped.invalid',
        dbUrl: 'postgresql://skipped.invalid/postgres',
        anonKey: '',
        serviceRoleKey: '',
        jwtSecret: '',
        sendEmailHookSecret: '',
        functionCallSecret: '',
        mailboxUrl: 'http://skipped.invalid/mailbox',
        pushUrl: 'http://skipped.invalid/push',
        vapidPublicKey: '',
        engine,
        dataDir: '',
        skipped: reason,
      });
      return async () => {};
    }
  }
  const started = Date.now();
  const stack = await startTestStack({ db: engine });
  console.info(
    `API tests: ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'} stack at ${stack.apiUrl} ready in ${Date.now() - started} ms`,
  );
  project.provide('kiraaStack', stackInfo(stack));
  return async () => {
    await stack.stop();
  };
}
