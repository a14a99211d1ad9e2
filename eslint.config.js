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
      // One door to infrastructure: only src/sync and src/lib talk to Dexie and Supabase.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'dexie', message: 'Use the functions in src/sync or src/lib instead.' },
            { name: '@supabase/supabase-js', message: 'Use the functions in src/lib instead.' },
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // Shared layers never import features or the app.
            {
              target: ['./src/lib', './src/ui', './src/sync'],
              from: ['./src/features', './src/app'],
            },
            // Features are composed in src/app only.
            { target: './src/features', from: './src/app' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/sync/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Infrastructure without user-facing copy, and tests.
    files: ['src/**/*.test.{ts,tsx}', 'src/sw.ts', 'src/sync/**', 'src/lib/**/*.ts'],
    rules: { 'lingui/no-unlocalized-strings': 'off' },
  },
  // Node side: the local stack, scripts, tests, configs.
  {
    files: ['supabase/**/*.ts', 'scripts/**/*.{ts,js}', 'tests/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off' },
  },
);
