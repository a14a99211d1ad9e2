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
 * Catalogs of one screen of a feature, loaded with that screen only, so the feature's other routes
 * do not carry its words (`page([...])` in src/app/routes.tsx, or `loadFeatureCatalog`). The
 * feature's own catalog leaves these files out.
 */
export const screenCatalogs = {
  // /account: settings, password, e-mail, security, appearance. Before, every sign-in screen
  // downloaded these words with the auth catalog.
  account: 'src/features/auth/account-*.tsx',
  // A guest's "also open my account" step (src/features/booking/join-account.tsx), loaded when
  // chosen: the booking screens carry neither its code nor its words.
  'guest-account': 'src/features/booking/join-account*.ts*',
} as const;

const screenFiles = Object.values(screenCatalogs);

/**
 * Words in src/ui that only some features show: extracted into those features' catalogs (so a
 * message sits in each catalog that needs it) and kept out of `core`, which every screen loads.
 * The car's coded values: the catalogue's pages and the staff's fleet form (src/ui/car-codes.ts);
 * the pickup and return records: the staff's forms and the customer's booking details.
 */
const carCodes = '<rootDir>/src/ui/car-codes.ts';
// A pickup or return record as staff write it and a customer reads it (docs/handovers.md).
const handoverWords = [
  '<rootDir>/src/ui/handover-labels.ts',
  '<rootDir>/src/ui/handover-summary.tsx',
  '<rootDir>/src/ui/car-outline.tsx',
];
const sharedWords: Partial<Record<(typeof catalogFeatures)[number], string[]>> = {
  catalogue: [carCodes],
  staff: [carCodes, ...handoverWords],
  bookings: handoverWords,
};
const sharedFiles = [...new Set(Object.values(sharedWords).flat())];

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
      exclude: ['**/*.test.*', ...sharedFiles],
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
      exclude: ['**/*.test.*', ...screenFiles.map((files) => `<rootDir>/${files}`)],
    })),
    ...Object.entries(screenCatalogs).map(([name, files]) => ({
      path: `<rootDir>/src/locales/{locale}/${name}`,
      include: [`<rootDir>/${files}`],
      exclude: ['**/*.test.*'],
    })),
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
