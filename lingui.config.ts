import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * One catalog per feature (loaded with its route), `domain` for the domain's wording, and `core`
 * for the shell and the layers under the features (app, ui, infra, sync).
 * French is the source language; English and Arabic must be complete.
 */
export const catalogFeatures = [
  'auth',
  'booking',
  'bookings',
  'catalogue',
  'content',
  'notifications',
  'staff',
] as const;

export default defineConfig({
  sourceLocale: 'fr',
  locales: ['fr', 'en', 'ar'],
  fallbackLocales: { default: 'fr' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/core',
      include: [
        '<rootDir>/src/app',
        '<rootDir>/src/ui',
        '<rootDir>/src/infra',
        '<rootDir>/src/sync',
      ],
      exclude: ['**/*.test.*'],
    },
    // The domain's wording (booking errors and outcomes): loaded with the screens that show
    // bookings (src/app/routes.tsx), not on every page.
    {
      path: '<rootDir>/src/locales/{locale}/domain',
      include: ['<rootDir>/src/domain'],
      exclude: ['**/*.test.*'],
    },
    ...catalogFeatures.map((feature) => ({
      path: `<rootDir>/src/locales/{locale}/${feature}`,
      include: [`<rootDir>/src/features/${feature}`],
      exclude: ['**/*.test.*'],
    })),
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
