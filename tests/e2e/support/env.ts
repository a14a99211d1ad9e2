/**
 * What the global setup hands to the specs: the URLs of the built app and of the local stack.
 * Set as environment variables (inherited by Playwright's workers) and written to
 * tests/.tmp/e2e-env.json for tools.
 */
export type E2eEnv = {
  /** The production build of the app, served on a free port. */
  appUrl: string;
  /** The folder of that build (the PWA spec publishes a new service worker there). */
  appDir: string;
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  dbUrl: string;
  mailboxUrl: string;
  /** The local push service and dev push inbox. */
  pushUrl: string;
  vapidPublicKey: string;
};

const keys: Record<keyof E2eEnv, string> = {
  appUrl: 'KIRAA_E2E_APP_URL',
  appDir: 'KIRAA_E2E_APP_DIR',
  apiUrl: 'KIRAA_E2E_API_URL',
  anonKey: 'KIRAA_E2E_ANON_KEY',
  serviceRoleKey: 'KIRAA_E2E_SERVICE_ROLE_KEY',
  dbUrl: 'KIRAA_E2E_DB_URL',
  mailboxUrl: 'KIRAA_E2E_MAILBOX_URL',
  pushUrl: 'KIRAA_E2E_PUSH_URL',
  vapidPublicKey: 'KIRAA_E2E_VAPID_PUBLIC_KEY',
};

export function writeE2eEnv(env: E2eEnv): void {
  for (const [name, variable] of Object.entries(keys)) {
    process.env[variable] = env[name as keyof E2eEnv];
  }
}

export function readE2eEnv(): E2eEnv {
  const entries = Object.entries(keys).map(([name, variable]) => {
    const value = process.env[variable];
    if (!value) {
      throw new Error(`${variable} is not set: run the specs through \`npx playwright test\`.`);
    }
    return [name, value];
  });
  return Object.fromEntries(entries) as E2eEnv;
}
