import { availableParallelism } from 'node:os';

import { defineConfig, mergeConfig } from 'vitest/config';

import viteConfig from './vite.config.ts';

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
            ],
            environment: 'happy-dom',
            setupFiles: ['tests/support/unit-setup.ts'],
            // Several 5 s waits (unit-setup.ts) must fit in one test on a loaded machine.
            testTimeout: 20_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'api',
            include: ['tests/api/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['tests/support/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
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
