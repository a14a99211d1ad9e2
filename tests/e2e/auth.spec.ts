/**
 * Accounts in the browser against the real stack: sign-up, sign-in with redirectUrl, the spec's
 * wrong-password message, sign-in with a code and password recovery through the dev mailbox, and
 * a session that survives reloads and an offline period (docs/accounts.md).
 */
import type { Page } from '@playwright/test';

import { newCustomer, uniqueEmail, waitForMail } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { countFailedRefreshes, DEMO_CUSTOMER, signInThroughUi } from './support/session.ts';
import { workerInControl } from './support/worker.ts';

async function signOutThroughMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

/** The stored supabase-js session (IndexedDB `kiraa`, table `meta`), or null. */
async function storedSession(page: Page): Promise<{ access_token: string } | null> {
  return page.evaluate(
    () =>
      new Promise<{ access_token: string } | null>((resolve, reject) => {
        const open = indexedDB.open('kiraa');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('meta', 'readonly')
            .objectStore('meta')
            .get('auth:kiraa-auth');
          request.onsuccess = () => {
            const row = request.result as { value?: string } | undefined;
            open.result.close();
            resolve(row?.value ? (JSON.parse(row.value) as { access_token: string }) : null);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

test.describe('accounts', () => {
  test('sign up → signed in (the header shows the menu) → sign out → /sign-in', async ({
    page,
  }) => {
    await page.goto('/sign-up?redirectUrl=%2Fqa');
    const form = page.getByRole('main');

    // The spec's rules, checked before anything is sent.
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(form.getByText('Le nom complet est requis')).toBeVisible();
    await expect(form.getByText("L'adresse e-mail est requise")).toBeVisible();
    await expect(form.getByText('Le numéro de téléphone est requis')).toBeVisible();
    await form.getByLabel('Âge').fill('17');
    await form.getByLabel('Téléphone').fill('0555 12 34');
    await form.getByLabel('Mot de passe', { exact: true }).fill('kiraa2026');
    await form.getByLabel('Confirmer le mot de passe').fill('kiraa2027');
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(form.getByText('Vous devez avoir au moins 18 ans')).toBeVisible();
    await expect(form.getByText(/indicatif du pays/)).toBeVisible();
    await expect(
      form.getByText('Le mot de passe doit contenir une lettre majuscule'),
    ).toBeVisible();
    await expect(form.getByText('Les mots de passe ne correspondent pas')).toBeVisible();

    const email = uniqueEmail('signup');
    await form.getByLabel('Nom complet').fill('Yacine Haddad');
    await form.getByLabel('Adresse e-mail').fill(email);
    await form.getByLabel('Téléphone').fill('+213 555 12 34 56');
    await form.getByLabel('Âge').fill('29');
    await form.getByLabel('Adresse complète').fill('5 boulevard Zighout Youcef, Alger');
    await form.getByLabel('Mot de passe', { exact: true }).fill('Kiraa2026!');
    await form.getByLabel('Confirmer le mot de passe').fill('Kiraa2026!');
    await form.getByRole('button', { name: 'Créer mon compte' }).click();

    await expect(page).toHaveURL(/\/qa$/);
    const menuButton = page.getByTestId('user-menu-button');
    await expect(menuButton).toBeVisible();
    await expect(menuButton).toHaveAccessibleName('Compte de Yacine Haddad');
    await expect(menuButton).toHaveText('YH');
    await expect(page.getByTestId('sign-in-link')).toHaveCount(0);
    await menuButton.click();
    const identity = page.getByTestId('user-menu-identity');
    await expect(identity).toContainText('Yacine Haddad');
    await expect(identity).toContainText(email);
    await page.keyboard.press('Escape');

    await signOutThroughMenu(page);
    expect(await storedSession(page)).toBeNull();
    // Signed out for real: a protected page asks to sign in again.
    await page.goto('/concepts/account/activity-log');
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Fconcepts%2Faccount%2Factivity-log$/);
  });

  test('signing in with the demo customer returns to redirectUrl', async ({ page }) => {
    await signInThroughUi(page, DEMO_CUSTOMER, { redirectUrl: '/concepts/account/activity-log' });
    await expect(page.getByRole('heading', { level: 1, name: 'Activité' })).toBeVisible();
    await page.getByTestId('user-menu-button').click();
    await expect(page.getByTestId('user-menu-identity')).toContainText(DEMO_CUSTOMER.email);
    // Another site in redirectUrl is refused: the user lands on /home.
    await page.keyboard.press('Escape');
    await signOutThroughMenu(page);
    await page.goto('/sign-in?redirectUrl=https%3A%2F%2Fevil.example%2F');
    await page.getByLabel('Adresse e-mail').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test("a wrong password shows the spec's message, in French and in English", async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Adresse e-mail').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill('Wrong-password-1');
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Email ou mot de passe incorrect. Veuillez réessayer.',
    );
    await expect(page).toHaveURL(/\/sign-in$/);

    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.reload();
    await page.getByLabel('Email address').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Incorrect email or password. Please try again.',
    );
  });

  test('sign in with a code from the dev mailbox, beside the password', async ({ page }) => {
    const customer = await newCustomer('Sofiane Amrani');
    await page.goto('/sign-in?redirectUrl=%2Fmybookings');
    await page.getByRole('link', { name: 'Recevoir un code par e-mail' }).click();
    await expect(page).toHaveURL(/\/sign-in\/code\?redirectUrl=%2Fmybookings$/);
    await expect(page.getByRole('heading', { name: 'Connexion avec un code' })).toBeVisible();
    await page.getByLabel('Adresse e-mail').fill(customer.email);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await expect(page.getByRole('status')).toContainText(
      `Si un compte existe pour ${customer.email}`,
    );
    const mail = await waitForMail(customer.email);
    const code = /\b(\d{8})\b/.exec(mail.text)?.[1];
    expect(code, mail.text).toBeTruthy();

    // A wrong code first: the translated reason, and the right one still works.
    const codeField = page.getByLabel('Code reçu par e-mail');
    await codeField.fill(code === '00000000' ? '11111111' : '00000000');
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('alert')).toContainText('Code incorrect ou expiré');
    await codeField.fill(code!);
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/mybookings$/);
    await expect.poll(async () => (await storedSession(page))?.access_token ?? '').not.toBe('');
  });

  test('password recovery: mail → /reset-password → the new password works', async ({ page }) => {
    const customer = await newCustomer('Nadia Ferhat');
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    // Until its code is here the sign-in page stays (a transition), with its own e-mail field.
    await expect(page.getByRole('heading', { name: 'Mot de passe oublié' })).toBeVisible();
    await page.getByLabel('Adresse e-mail').fill(customer.email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(page.getByRole('status')).toContainText(
      `Si un compte existe pour ${customer.email}`,
    );

    const mail = await waitForMail(customer.email);
    const link = /https?:\/\/\S+type=recovery\S*/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    await page.goto(link!);
    await expect(page).toHaveURL(/\/reset-password/);
    await expect(page.getByRole('heading', { name: 'Nouveau mot de passe' })).toBeVisible();
    // The token left the address bar once supabase-js read it.
    await expect.poll(() => new URL(page.url()).hash).toBe('');

    const newPassword = 'Nouveau-2026';
    await page.locator('input[name="password"]').fill('weak');
    await page.locator('input[name="confirmPassword"]').fill('weak');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect(
      page.getByText('Le mot de passe doit contenir au moins 8 caractères'),
    ).toBeVisible();
    await page.locator('input[name="password"]').fill(newPassword);
    await page.locator('input[name="confirmPassword"]').fill(newPassword);
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect(page.getByText('Votre mot de passe a été réinitialisé.')).toBeVisible();
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page).toHaveURL(/\/home$/);

    await signOutThroughMenu(page);
    await page.getByLabel('Adresse e-mail').fill(customer.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(customer.password);
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Email ou mot de passe incorrect. Veuillez réessayer.',
    );
    await page.getByLabel('Mot de passe', { exact: true }).fill(newPassword);
    await page.getByRole('main').getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/home$/);

    // A recovery link works once.
    await signOutThroughMenu(page);
    await page.goto(link!);
    await expect(page).toHaveURL(/\/reset-password/);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.locator('input[name="password"]')).toHaveCount(0);
  });

  test('tabs follow each other: signing out in one signs out the other, and back', async ({
    page,
    context,
  }) => {
    const customer = await newCustomer('Lina Bouzid');
    await signInThroughUi(page, customer);
    const other = await context.newPage();
    await other.goto('/qa');
    await expect(other.getByTestId('user-menu-button')).toBeVisible();

    await signOutThroughMenu(page);
    await expect(other.getByTestId('user-menu-button')).toHaveCount(0);
    await expect(other.getByTestId('sign-in-link')).toBeVisible();

    await signInThroughUi(page, customer);
    await expect(other.getByTestId('user-menu-button')).toBeVisible();
    await other.close();
  });

  test('the session survives a reload and an offline period without signing out', async ({
    page,
    context,
  }) => {
    const customer = await newCustomer('Omar Saidi');
    await page.clock.install();
    await signInThroughUi(page, customer);
    const menuButton = page.getByTestId('user-menu-button');
    await expect(menuButton).toBeVisible();
    const first = await storedSession(page);
    expect(first?.access_token).toBeTruthy();

    await page.reload();
    await expect(menuButton).toBeVisible();
    // The service worker serves the app while offline.
    await workerInControl(page);

    // Offline for two hours: the access token (1 h) expires, the refresh cannot reach the server,
    // and the user stays signed in.
    const failedRefreshes = countFailedRefreshes(context);
    await context.setOffline(true);
    await page.clock.fastForward('02:00:00');
    await page.clock.fastForward('01:00');
    await expect(menuButton).toBeVisible();
    expect((await storedSession(page))?.access_token).toBe(first?.access_token);
    await page.goto('/concepts/account/activity-log');
    await expect(page.getByRole('heading', { level: 1, name: 'Activité' })).toBeVisible();
    await expect(menuButton).toBeVisible();
    // A page loaded offline can believe it is online (navigator.onLine says true): it tries to
    // refresh, and supabase-js gives up after its 30 s of backoff.
    await expect.poll(failedRefreshes).toBeGreaterThan(0);
    await page.clock.fastForward('00:30');
    await expect(menuButton).toBeVisible();

    // Back online: the session is refreshed without waiting out supabase-js's one-minute memory
    // of the refreshes that failed offline (the page's clock does not move on), still signed in.
    await context.setOffline(false);
    await expect
      .poll(async () => (await storedSession(page))?.access_token, { timeout: 30_000 })
      .not.toBe(first?.access_token);
    await expect(menuButton).toBeVisible();
    await page.reload();
    await expect(menuButton).toBeVisible();
  });
});
