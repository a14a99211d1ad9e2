import { expect, type BrowserContext, type Page } from '@playwright/test';

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
