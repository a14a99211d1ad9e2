import { availableParallelism } from 'node:os';

import { defineConfig, mergeConfig, type TestProjectInlineConfiguration } from 'vitest/config';

import viteConfig from './vite.config.ts';

type ProjectConfig = NonNullable<TestProjectInlineConfiguration['test']>;

/** The API projects: one local stack per run, its files one after another. */
const API: ProjectConfig = {
  environment: 'node',
  globalSetup: ['tests/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  fileParallelism: false,
};

/**
 * What PGlite does its own way: its socket and one-session queue, restarts on the same data
 * (stack); role switching (roles, rls); concurrent bookings serialised by that queue
 * (create-booking); the auth stand-in's transactions (auth); the scheduler and webhooks without
 * pg_cron and pg_net (functions).
 */
const PGLITE_API_FILES = [
  'tests/api/stack.test.ts',
  'tests/api/roles.test.ts',
  'tests/api/rls.test.ts',
  'tests/api/create-booking.test.ts',
  'tests/api/auth.test.ts',
  'tests/api/functions.test.ts',
];

// Unit tests run next to the code with a fake IndexedDB; API tests run against a real local stack
// started once per run by tests/support/global-setup.ts (PGlite, or PostgreSQL when
// KIRAA_TEST_DB=postgres). TZ is fixed to UTC by the npm scripts so Africa/Algiers bugs show.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Vitest's default leaves one core to its main process: one worker on the 2-core machines.
      // Both cores: the unit suite 175 → 110 s there (the API projects run one file at a time).
      maxWorkers: availableParallelism(),
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: [
              'src/**/*.test.{ts,tsx}',
              'supabase/local/**/*.test.ts',
              'supabase/functions/**/*.test.ts',
              'scripts/**/*.test.ts',
              'tests/bench/**/*.test.ts',
            ],
            environment: 'happy-dom',
            setupFiles: ['tests/support/unit-setup.ts'],
            // Several 5 s waits (unit-setup.ts) must fit in one test on a loaded machine.
            testTimeout: 20_000,
          },
        },
        {
          extends: true,
          test: { name: 'api', include: ['tests/api/**/*.test.ts'], ...API },
        },
        {
          // The gate runs every API file on PostgreSQL, the production engine, and these on
          // PGlite beside it (docs/local-stack.md, "Tests and benchmarks"): the parts of the local stack that
          // differ by engine. `npm run test:api` still runs them all on PGlite.
          extends: true,
          test: { name: 'api-pglite', include: PGLITE_API_FILES, ...API },
        },
        {
          extends: true,
          test: {
            // The contract of tests/contract: a local stack, or a hosted project (SUPABASE_URL).
            name: 'contract',
            include: ['tests/contract/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['tests/contract/target.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  }),
);
