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

/**
 * Words in src/ui that only some features show: extracted into those features' catalogs (so a
 * message sits in each catalog that needs it) and kept out of `core`, which every screen loads.
 * The car's coded values: the catalogue's pages and the staff's fleet form (src/ui/car-codes.ts).
 */
const sharedWords: Partial<Record<(typeof catalogFeatures)[number], string[]>> = {
  catalogue: ['<rootDir>/src/ui/car-codes.ts'],
  staff: ['<rootDir>/src/ui/car-codes.ts'],
};

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
      exclude: ['**/*.test.*', '<rootDir>/src/ui/car-codes.ts'],
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
      include: [`<rootDir>/src/features/${feature}`, ...(sharedWords[feature] ?? [])],
      exclude: ['**/*.test.*'],
    })),
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
