/**
 * The account page's security section (/account, src/features/auth/account-security.tsx) against
 * the real stack: a customer adds an authenticator app (the QR code and the secret as text, the
 * first code computed with otpauth as an app would) and the session rises to aal2; removes it and
 * the account has no factor left; "sign out everywhere" ends this device's session at once and
 * another device's at its next refresh.
 */
import type { Page } from '@playwright/test';

import { totpCode } from '../support/mfa.ts';
import { newCustomer } from './support/accounts.ts';
import type { E2eEnv } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { signInThroughUi } from './support/session.ts';

type StoredSession = { access_token: string; refresh_token: string };

/** The session supabase-js keeps in IndexedDB (`kiraa`, `meta`, docs/accounts.md). */
async function storedSession(page: Page): Promise<StoredSession | null> {
  return page.evaluate(
    () =>
      new Promise<StoredSession | null>((resolve, reject) => {
        const open = indexedDB.open('kiraa');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('meta', 'readonly')
            .objectStore('meta')
            .get('auth:kiraa-auth');
          request.onsuccess = () => {
            const value = (request.result as { value?: string } | undefined)?.value;
            open.result.close();
            resolve(value ? (JSON.parse(value) as StoredSession) : null);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

function claims(token: string): { aal: string; amr: Array<{ method: string }> } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as never;
}

/** The user's factors as the admin API lists them (never their secrets). */
async function factorsOf(e2e: E2eEnv, userId: string): Promise<Array<{ status: string }>> {
  const response = await fetch(`${e2e.apiUrl}/auth/v1/admin/users/${userId}/factors`, {
    headers: { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Array<{ status: string }>;
}

test.describe('account security', () => {
  test('adds an authenticator app with its first code (aal2), then removes it', async ({
    page,
    e2e,
  }) => {
    const customer = await newCustomer('Yacine Haddad');
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    const security = page.getByTestId('account-security');
    await expect(security).toContainText("Aucune application d'authentification");
    expect(claims((await storedSession(page))!.access_token).aal).toBe('aal1');

    await security
      .getByRole('button', { name: "Ajouter une application d'authentification" })
      .click();
    // The QR code (an SVG data URI the server makes) and the secret as text.
    const qr = security.getByRole('img', { name: "Code QR de l'application" });
    await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/);
    const secret = (await security.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A wrong code first: refused, the enrolment stays.
    const code = security.getByLabel("Code de l'application");
    const right = totpCode(secret);
    await code.fill(right === '000000' ? '111111' : '000000');
    await security.getByRole('button', { name: 'Vérifier' }).click();
    await expect(security.getByRole('alert')).toBeVisible();
    expect(await factorsOf(e2e, customer.id)).toEqual([
      expect.objectContaining({ status: 'unverified' }),
    ]);

    await code.fill(totpCode(secret));
    await security.getByRole('button', { name: 'Vérifier' }).click();
    await expect(security.getByTestId('account-factors').getByRole('listitem')).toHaveCount(1);
    await expect(qr).toHaveCount(0);
    expect(await factorsOf(e2e, customer.id)).toEqual([
      expect.objectContaining({ status: 'verified' }),
    ]);
    // The session passed the factor: aal2, `totp` first in its amr.
    await expect
      .poll(async () => claims((await storedSession(page))!.access_token).aal)
      .toBe('aal2');
    expect(claims((await storedSession(page))!.access_token).amr[0]!.method).toBe('totp');

    // Kept across a reload.
    await page.reload();
    await expect(security.getByTestId('account-factors').getByRole('listitem')).toHaveCount(1);

    // Removed (at aal2): the list is empty, on the server too.
    await security.getByTestId('account-factors').getByRole('button', { name: 'Retirer' }).click();
    await expect(security).toContainText("Aucune application d'authentification");
    await expect(security.getByTestId('account-factors')).toHaveCount(0);
    expect(await factorsOf(e2e, customer.id)).toEqual([]);
  });

  test('“sign out everywhere” ends this session at once and another device’s at its next refresh', async ({
    page,
    browser,
    baseURL,
    e2e,
  }) => {
    const customer = await newCustomer('Karima Belaid');
    // The other device: its clock is moved on later, so its session wants a refresh.
    const device = await browser.newContext({ baseURL });
    const other = await device.newPage();
    try {
      await other.clock.install();
      await signInThroughUi(other, customer, { redirectUrl: '/account' });
      await expect(other.getByTestId('user-menu-button')).toBeVisible();
      const theirs = (await storedSession(other))!;

      await signInThroughUi(page, customer, { redirectUrl: '/account' });
      await page.getByTestId('sign-out-everywhere').click();
      await expect(page).toHaveURL(/\/sign-in$/);
      await expect(page.getByTestId('user-menu-button')).toHaveCount(0);
      expect(await storedSession(page)).toBeNull();

      // The other device's refresh token died with its session on the server.
      const refused = await fetch(`${e2e.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: { apikey: e2e.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: theirs.refresh_token }),
      });
      expect(refused.status).toBe(400);

      // Its next refresh (56 minutes later, under 300 s before expiry) is refused: signed out,
      // the account page gives way to the sign-in page.
      await other.clock.fastForward('56:00');
      await expect(other).toHaveURL(/\/sign-in/, { timeout: 30_000 });
      await expect(other.getByTestId('user-menu-button')).toHaveCount(0);
      await expect.poll(() => storedSession(other)).toBeNull();
    } finally {
      await device.close();
    }
  });
});
