/**
 * The account settings page (/account, docs/accounts.md "Account settings") against the real
 * stack: the colour theme and mode persist across reloads (French and Arabic, before the app
 * runs), follow the account to another device, the page passes axe and fits 320 px; the profile
 * is saved and refused by the rules; the e-mail changes with the code mailed to the new address;
 * a day-old session changes the password only with the code mailed by /reauthenticate.
 */
import type { Page } from '@playwright/test';
import pg from 'pg';

import { apiClient, newCustomer, uniqueEmail, waitForMail } from './support/accounts.ts';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { readE2eEnv } from './support/env.ts';
import { signInThroughUi } from './support/session.ts';

/** What index.html put on <html> before the app's code ran (read on DOMContentLoaded). */
async function themeBeforeApp(page: Page): Promise<{ theme?: string; dark: boolean }> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const root = document.documentElement;
      (window as unknown as { __early: unknown }).__early = {
        theme: root.dataset.theme,
        dark: root.classList.contains('dark'),
      };
    });
  });
  await page.reload();
  return page.evaluate(() => (window as unknown as { __early: never }).__early);
}

test.describe('account settings', () => {
  test('a colour theme and a mode persist across reloads and follow the account', async ({
    page,
    browser,
    baseURL,
  }) => {
    const customer = await newCustomer();
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'default');

    await page.getByRole('radio', { name: 'Violet' }).check();
    await page.getByRole('radio', { name: 'Sombre' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'purple');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    // The primary colour is the purple theme's dark palette (src/styles.css).
    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--k-primary-text').trim(),
    );
    expect(primary).toBe('#d8b4fe');

    // Saved with the account (before the reload, which would cut the request short).
    await expect
      .poll(async () => {
        const client = apiClient();
        const { data, error } = await client.auth.signInWithPassword({
          email: customer.email,
          password: customer.password,
        });
        return error ? error.message : (data.user?.user_metadata.theme as unknown);
      })
      .toEqual({ schema: 'purple', mode: 'dark' });
    expect(await themeBeforeApp(page)).toEqual({ theme: 'purple', dark: true });
    await expect(page.getByRole('radio', { name: 'Violet' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Sombre' })).toBeChecked();
    await expectAccessible(page, '#main');

    // Another device adopts it when signing in.
    const device = await browser.newContext({ baseURL });
    const other = await device.newPage();
    try {
      await signInThroughUi(other, customer, { redirectUrl: '/home' });
      await expect(other.locator('html')).toHaveAttribute('data-theme', 'purple');
      await expect(other.locator('html')).toHaveClass(/\bdark\b/);
    } finally {
      await device.close();
    }
  });

  test('in Arabic at 320 px: right to left, translated, the theme persists, no sideways scroll', async ({
    page,
  }) => {
    const customer = await newCustomer();
    await page.setViewportSize({ width: 320, height: 640 });
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'حسابي' })).toBeVisible();

    await page.getByRole('radio', { name: 'برتقالي' }).check();
    await page.getByRole('radio', { name: 'فاتح' }).check();
    expect(await themeBeforeApp(page)).toEqual({ theme: 'orange', dark: false });
    await expect(page.getByRole('radio', { name: 'برتقالي' })).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, '#main');
  });

  test('the profile is saved, and a bad value is refused with the rule', async ({ page }) => {
    const customer = await newCustomer();
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    const profile = page.getByTestId('account-profile');
    await expect(profile.getByLabel('Nom complet')).toHaveValue(customer.name);

    await profile.getByLabel('Âge').fill('17');
    await profile.getByRole('button', { name: 'Enregistrer le profil' }).click();
    await expect(profile.getByText('Vous devez avoir au moins 18 ans')).toBeVisible();

    await profile.getByLabel('Âge').fill('41');
    await profile.getByLabel('Nom complet').fill('Lina Haddad');
    await profile.getByLabel('Téléphone').fill('0555 12 34 56');
    await profile.getByRole('button', { name: 'Enregistrer le profil' }).click();
    await expect(profile.getByRole('status')).toHaveText('Profil enregistré.');

    const { data } = await customer.client
      .from('profiles')
      .select('full_name, phone, age')
      .eq('id', customer.id)
      .single();
    expect(data).toEqual({ full_name: 'Lina Haddad', phone: '+213555123456', age: 41 });
    // The header's name follows (the account's metadata).
    await page.reload();
    await expect(page.getByTestId('account-profile').getByLabel('Nom complet')).toHaveValue(
      'Lina Haddad',
    );
  });

  test('the e-mail changes with the code mailed to the new address', async ({ page }) => {
    const customer = await newCustomer();
    const next = uniqueEmail('moved');
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    const section = page.getByTestId('account-email');
    await section.getByLabel('Nouvelle adresse e-mail').fill(next);
    await section.getByRole('button', { name: "Changer d'adresse" }).click();

    const mail = await waitForMail(next);
    const code = /\b(\d{8})\b/.exec(mail.text)?.[1];
    expect(code).toBeDefined();
    await section.getByTestId('email-code-new').fill('00000000');
    await section.getByRole('button', { name: 'Confirmer' }).click();
    await expect(section.getByRole('alert')).toContainText('Code incorrect ou expiré');

    await section.getByTestId('email-code-new').fill(code!);
    await section.getByRole('button', { name: 'Confirmer' }).click();
    await expect(section.getByRole('status')).toContainText('Votre adresse e-mail est maintenant');

    const signIn = await apiClient().auth.signInWithPassword({
      email: next,
      password: customer.password,
    });
    expect(signIn.error).toBeNull();
  });

  test('a session older than a day changes the password with the code mailed to the account', async ({
    page,
  }) => {
    const customer = await newCustomer();
    await signInThroughUi(page, customer, { redirectUrl: '/account' });
    // The sign-in was more than 24 hours ago (config.toml secure_password_change, GoTrue's window).
    const db = new pg.Client({ connectionString: readE2eEnv().dbUrl });
    await db.connect();
    try {
      await db.query(
        `update auth.sessions set created_at = now() - interval '25 hours'
          where user_id = (select id from auth.users where email = $1)`,
        [customer.email],
      );
    } finally {
      await db.end();
    }
    const form = page
      .getByRole('button', { name: 'Changer le mot de passe' })
      .locator('xpath=ancestor::form');
    await form.getByLabel('Nouveau mot de passe', { exact: true }).fill('Nouveau-mdp7!');
    await form.getByLabel('Confirmer le mot de passe').fill('Nouveau-mdp7!');
    await form.getByRole('button', { name: 'Changer le mot de passe' }).click();

    const mail = await waitForMail(customer.email, 15_000, (m) =>
      m.subject.includes('code de confirmation'),
    );
    const code = /\b(\d{8})\b/.exec(mail.text)![1]!;
    await form.getByTestId('password-code').fill(code);
    await form.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(form.getByText('Mot de passe modifié.')).toBeVisible();

    const signIn = await apiClient().auth.signInWithPassword({
      email: customer.email,
      password: 'Nouveau-mdp7!',
    });
    expect(signIn.error).toBeNull();
  });
});
