import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'fr',
  locales: ['fr', 'en', 'ar'],
  fallbackLocales: { default: 'fr' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['src'],
      exclude: ['**/*.test.ts', '**/*.test.tsx'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
