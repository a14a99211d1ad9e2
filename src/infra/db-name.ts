/**
 * The device's IndexedDB database (src/infra/db.ts) and its table of cars: also read, before
 * the app's code, by index.html's script on a repeat visit (src/sync/catalogue-prefetch.ts).
 * Imported by the build: no imports, no browser globals.
 */
export const DEVICE_DB_NAME = 'kiraa';
export const CARS_TABLE = 'cars';
