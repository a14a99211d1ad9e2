// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Strings that are code, not copy: single lowercase tokens, UPPER_CASE, paths, urls, css. */
const codeLikeStrings = ['^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', '^[\\s\\S]*[{}<>;=]\\S*$'];

/** The features (src/features/<name>): none imports another; the app composes them. */
const features = ['auth', 'booking', 'bookings', 'catalogue', 'content', 'notifications', 'staff'];

/**
 * domain ← infra ← sync ← features ← app, and ui (presentational) beside them, on the domain
 * only. A zone forbids its `target` to import anything under `from`.
 */
const layerZones = [
  {
    target: './src/domain',
    from: ['./src/infra', './src/sync', './src/ui', './src/features', './src/app'],
    message: 'src/domain is the bottom layer: it imports no other layer.',
  },
  {
    target: './src/infra',
    from: ['./src/sync', './src/ui', './src/features', './src/app'],
    message: 'src/infra imports only src/domain.',
  },
  {
    target: './src/sync',
    from: ['./src/ui', './src/features', './src/app'],
    message: 'src/sync imports only src/infra and src/domain.',
  },
  {
    target: './src/ui',
    from: ['./src/infra', './src/sync', './src/features', './src/app'],
    message: 'src/ui is presentational: it imports only src/domain.',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'Features are composed in src/app, never the other way round.',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another: move what they share down a layer.',
  })),
];

/** Builds of a library that weigh more than the part the app uses (docs/performance.md). */
const wholeBuilds = [
  { name: 'zod', message: "Import * as z from 'zod/mini': its checks are shaken out (24 → 9 KB)." },
];

/** Libraries that only src/infra and src/sync use. */
const infraLibraries = [
  { name: 'dexie', message: 'Use the functions of src/infra or src/sync instead.' },
  { name: '@supabase/supabase-js', message: 'Use the functions of src/infra instead.' },
];

/**
 * The client instance and the database: outside src/infra and src/sync, only a feature's api
 * module (src/features/<f>/<f>-api.ts) holds them, so each feature's server and Dexie calls live
 * in one place. Types from those modules stay importable.
 */
const clientAndDatabase = [
  {
    name: '@/infra/db',
    importNames: ['db'],
    allowTypeImports: true,
    message: "Read and write Dexie in the feature's api module (src/features/<f>/<f>-api.ts).",
  },
  {
    name: '@/infra/supabase',
    importNames: ['supabase', 'guestClient'],
    allowTypeImports: true,
    message: "Call the server from the feature's api module (src/features/<f>/<f>-api.ts).",
  },
];

/** The modules that may hold the client and the database besides src/infra and src/sync. */
const apiModules = [
  ...features.map((feature) => `src/features/${feature}/${feature}-api.ts`),
  // The wizard's draft is the booking feature's own storage (a Dexie row and its files).
  'src/features/booking/draft-store.ts',
  // The booking feature's reads of the device alone, so the wizard's first screen loads no
  // supabase-js (docs/performance.md, "The wizard's first screen").
  'src/features/booking/booking-store.ts',
  // A guest's "also open my account" step, loaded only when chosen (join-account.tsx).
  'src/features/booking/join-account-api.ts',
  // The staff's second factor (auth calls), apart from the board's calls in staff-api.ts.
  'src/features/staff/second-factor-api.ts',
  // The fleet calendar and blocks (docs/fleet.md), apart from the board's calls.
  'src/features/staff/calendar-api.ts',
  'src/features/staff/fleet-api.ts',
  // Staff invitations (the invite-staff Edge Function, docs/auth.md).
  'src/features/staff/staff-invite-api.ts',
  // Pickup and return records: the server's and this phone's outbox (docs/handovers.md).
  'src/features/staff/handover-api.ts',
  // Places and their opening hours (docs/opening-hours.md).
  'src/features/staff/places-api.ts',
  'src/features/staff/prices-api.ts',
  // Tests seed and read the device's database; the service worker owns its own requests.
  'src/**/*.test.{ts,tsx}',
  'src/features/*/testing/**',
  'src/sw.ts',
];

/** What the domain may not import: frameworks, storage, network, the service worker. */
const domainForbidden = [
  ...infraLibraries,
  ...wholeBuilds,
  'react',
  'react-dom',
  'dexie-react-hooks',
  'xstate',
  '@xstate/react',
  '@lingui/react',
  '@lingui/react/macro',
];

/** Browser globals the domain may not touch (Deno and Node load some of its modules). */
const browserGlobals = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'location',
  'fetch',
].map((name) => ({ name, message: 'src/domain is pure: take what you need as an argument.' }));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.kiraa/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'tests/.tmp/**',
      // Written by `supabase gen types typescript` (npm run test:supabase -- --update).
      'src/infra/database.types.ts',
      'src/locales/**/*.js',
      'dev-dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'tsconfig.node.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  // The browser app.
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, lingui },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
      'lingui/no-expression-in-message': 'error',
      'lingui/no-trans-inside-trans': 'error',
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: codeLikeStrings,
          ignoreNames: [
            { regex: { pattern: 'className', flags: 'i' } },
            { regex: { pattern: '^[A-Z0-9_]+$' } },
            { regex: { pattern: '(Key|Id|Path|Url|Href|Type|Mode|Name|Format)$' } },
            'type',
            'id',
            'href',
            'to',
            'src',
            'srcSet',
            'role',
            'rel',
            'target',
            'method',
            'autoComplete',
            'inputMode',
            'pattern',
            'name',
            'dir',
            'lang',
            'key',
            'as',
            'width',
            'height',
            'viewBox',
            'd',
            'fill',
            'stroke',
            'xmlns',
            'variant',
            'size',
            'accept',
            'data-testid',
            'mode',
            'kind',
            'state',
            'status',
            'code',
            'locale',
          ],
          ignoreFunctions: [
            'Error',
            'TypeError',
            'RangeError',
            'console.*',
            'cn',
            'clsx',
            '*.addEventListener',
            '*.removeEventListener',
            '*.postMessage',
            '*.getElementById',
            '*.querySelector',
            '*.querySelectorAll',
            '*.includes',
            '*.startsWith',
            '*.endsWith',
            '*.setAttribute',
            '*.getAttribute',
            '*.toggle',
            '*.add',
            '*.remove',
            '*.get',
            '*.set',
            '*.has',
            '*.delete',
            '*.from',
            '*.select',
            '*.eq',
            '*.order',
            '*.rpc',
            '*.where',
            '*.equals',
            '*.matchMedia',
            'Intl.*',
            'new Intl.*',
            'fetch',
            'import',
            'URL',
            'new URL',
            'Symbol',
            'useMatch',
            'navigate',
            'createMachine',
            'setup',
            'assign',
            'z.*',
            'send',
            '*.send',
            'raise',
            'emit',
          ],
          useTsTypes: false,
        },
      ],
      // One door to infrastructure: only src/infra and src/sync talk to Dexie and Supabase, and
      // in a feature only its api module holds the client or the database.
      'no-restricted-imports': [
        'error',
        { paths: [...infraLibraries, ...clientAndDatabase, ...wholeBuilds] },
      ],
      // The layers (docs/architecture.md): each imports only the layers below it.
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    files: apiModules,
    rules: { 'no-restricted-imports': ['error', { paths: [...infraLibraries, ...wholeBuilds] }] },
  },
  {
    files: ['src/sync/**', 'src/infra/**'],
    rules: { 'no-restricted-imports': ['error', { paths: wholeBuilds }] },
  },
  {
    // The domain is pure: no framework, no storage, no network, no browser.
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: domainForbidden, patterns: ['workbox-*'] }],
      'no-restricted-globals': ['error', ...browserGlobals],
    },
  },
  {
    // Infrastructure and rules without user-facing copy, and tests.
    files: [
      'src/**/*.test.{ts,tsx}',
      'src/sw.ts',
      'src/sync/**',
      'src/infra/**/*.ts',
      'src/domain/**/*.ts',
    ],
    rules: { 'lingui/no-unlocalized-strings': 'off' },
  },
  // Node side: the local stack, scripts, tests, configs.
  {
    files: ['supabase/**/*.ts', 'scripts/**/*.{ts,js}', 'tests/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off' },
  },
  // One job per file: app code stays under 400 lines (tests and generated types aside).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/infra/database.types.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  // The local stack too: one file per route or job, as the services it stands in for.
  {
    files: ['supabase/local/**/*.ts'],
    ignores: ['supabase/local/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
);
