import { expect, type BrowserContext, type Page } from '@playwright/test';

import { DEMO_ADMIN_TOTP_SECRET, totpCode } from '../../support/mfa.ts';

/** The seed's demo accounts (docs/decisions.md). */
export const DEMO_CUSTOMER = { email: 'client@kiraa.dz', password: 'Kiraa2026!' };
export const DEMO_ADMIN = { email: 'admin@kiraa.dz', password: 'Kiraa2026!' };

/** Signs in through the sign-in screen (French UI) and waits to land on `expectPath`. */
export async function signInThroughUi(
  page: Page,
  account: { email: string; password: string } = DEMO_CUSTOMER,
  { redirectUrl = '/home' }: { redirectUrl?: string } = {},
): Promise<void> {
  await page.goto(`/sign-in?redirectUrl=${encodeURIComponent(redirectUrl)}`);
  await page.getByLabel('Adresse e-mail').fill(account.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(account.password);
  await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${redirectUrl.replace(/[?]/g, '\\?')}$`));
}

/** Sign-ins `passSecondFactorInUi` tries before it gives up. */
const ATTEMPTS = 6;

/**
 * On a staff screen showing the second-factor step (src/features/staff/second-factor.tsx), types
 * the current TOTP code of `secret` (computed with otpauth) and waits for the step to go. Works in
 * every language (test ids). A verify elsewhere ends this user's aal1 sessions (GoTrue), so a
 * parallel test passing the same admin's factor can end this one first: then it signs in again.
 */
export async function passSecondFactorInUi(
  page: Page,
  {
    account = DEMO_ADMIN,
    secret = DEMO_ADMIN_TOTP_SECRET,
  }: { account?: { email: string; password: string }; secret?: string } = {},
): Promise<void> {
  const gate = page.getByTestId('second-factor');
  for (let attempt = 1; ; attempt += 1) {
    const here = page.url();
    await expect(gate).toHaveAttribute('data-step', 'challenge');
    await page.getByTestId('second-factor-code').fill(totpCode(secret));
    const alert = gate.getByRole('alert');
    // Typing clears an earlier refusal, so what follows is this code's answer.
    await expect(alert).toHaveCount(0);
    await page.getByTestId('second-factor-submit').click();
    await expect
      .poll(async () => (await gate.isHidden()) || (await alert.isVisible()), { timeout: 15_000 })
      .toBe(true);
    // Passed, unless the session ended meanwhile and the app went back to /sign-in.
    if ((await gate.isHidden()) && !new URL(page.url()).pathname.startsWith('/sign-in')) return;
    if (attempt >= ATTEMPTS) {
      throw new Error(`the second factor was refused ${ATTEMPTS} times`);
    }
    // The session was ended by another test's verify: sign in again and retry, after a pause
    // of random length, so that a worker whose tests sign the admin in one after the other does
    // not end this session at every attempt.
    await page.waitForTimeout(250 + Math.random() * 1000);
    const path = new URL(here).pathname;
    // Forget the dead session (IndexedDB `kiraa`, `meta`), so /sign-in does not send us back.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('kiraa');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('meta', 'readwrite');
            tx.objectStore('meta').delete('auth:kiraa-auth');
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
    );
    await page.goto(`/sign-in?redirectUrl=${encodeURIComponent(path)}`);
    await page.locator('main input[type="email"]').fill(account.email);
    await page.locator('main input[type="password"]').fill(account.password);
    await page.locator('main button[type="submit"]').click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
}

/** The demo admin signed in through the UI, second factor passed, on `redirectUrl` (/staff). */
export async function signInStaffThroughUi(page: Page, redirectUrl = '/staff'): Promise<void> {
  await signInThroughUi(page, DEMO_ADMIN, { redirectUrl });
  await passSecondFactorInUi(page);
}

/**
 * Counts the token refreshes of `context` that failed at the network level from now on (offline,
 * a page can still believe it is online and try). Returns the counter.
 */
export function countFailedRefreshes(context: BrowserContext): () => number {
  let failed = 0;
  context.on('requestfailed', (request) => {
    if (request.url().includes('/auth/v1/token?grant_type=refresh_token')) failed += 1;
  });
  return () => failed;
}
