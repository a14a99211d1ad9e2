/**
 * Sign-up with e-mail confirmation on (supabase/config.toml `enable_confirmations = true`, the
 * hosted default): the form → the translated "check your mail" screen → the link in the dev
 * mailbox → signed in. The shared e2e stack runs with confirmation off, so this spec starts a
 * stack of its own with the setting on and sends the app's API calls to it (the app is built
 * against the shared stack's address; the keys are the same development keys).
 */
import type { BrowserContext } from '@playwright/test';

import { startTestStack, type TestStack } from '../support/stack.ts';
import { parseAuthMail, waitForMailAt } from '../support/supabase.ts';
import { uniqueEmail } from './support/accounts.ts';
import { readE2eEnv } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';

let stack: TestStack;

test.beforeAll(async () => {
  const { appUrl } = readE2eEnv();
  stack = await startTestStack({
    appOrigins: [appUrl],
    siteUrl: appUrl,
    settings: { auth: { email: { enableConfirmations: true } } },
  });
});

test.afterAll(async () => {
  await stack?.stop();
});

/** Every call the app makes to its API goes to the confirming stack instead. */
async function useConfirmingStack(context: BrowserContext, apiUrl: string): Promise<void> {
  await context.route(`${apiUrl}/**`, (route) =>
    route.continue({ url: route.request().url().replace(apiUrl, stack.apiUrl) }),
  );
}

test('sign up → "check your mail" → the link in the mailbox → signed in', async ({
  page,
  context,
  e2e,
}) => {
  await useConfirmingStack(context, e2e.apiUrl);
  await page.goto('/sign-up');
  const form = page.getByRole('main');
  const email = uniqueEmail('confirm');
  await form.getByLabel('Nom complet').fill('Samira Benali');
  await form.getByLabel('Adresse e-mail').fill(email);
  await form.getByLabel('Téléphone').fill('+213555987654');
  await form.getByLabel('Âge').fill('34');
  await form.getByLabel('Adresse complète').fill('12 rue Ben Boulaid, Constantine');
  await form.getByLabel('Mot de passe', { exact: true }).fill('Kiraa2026!');
  await form.getByLabel('Confirmer le mot de passe').fill('Kiraa2026!');
  await form.getByRole('button', { name: 'Créer mon compte' }).click();

  await expect(page.getByRole('heading', { name: 'Compte créé' })).toBeVisible();
  await expect(
    page.getByText(`Confirmez votre adresse avec le lien envoyé à ${email}`),
  ).toBeVisible();
  await expect(page.getByTestId('user-menu-button')).toHaveCount(0);

  // The mail speaks the language the app was in (lang=fr in the redirect).
  const mail = await waitForMailAt(stack.mailboxUrl, email);
  expect(mail.subject).toBe('Kiraa : confirmez votre adresse e-mail');
  await page.goto(parseAuthMail(mail.text).link.toString());

  const menuButton = page.getByTestId('user-menu-button');
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toHaveAccessibleName('Compte de Samira Benali');
  await expect(page).not.toHaveURL(/access_token/);
});

test('a refused profile names the field, translated', async ({ page, context, e2e }) => {
  await useConfirmingStack(context, e2e.apiUrl);
  await page.goto('/sign-up');
  const form = page.getByRole('main');
  await form.getByLabel('Nom complet').fill('Samira');
  await form.getByLabel('Adresse e-mail').fill(uniqueEmail('refused'));
  await form.getByLabel('Téléphone').fill('+213555987654');
  await form.getByLabel('Âge').fill('34');
  await form.getByLabel('Adresse complète').fill('12 rue Ben Boulaid, Constantine');
  await form.getByLabel('Mot de passe', { exact: true }).fill('Kiraa2026!');
  await form.getByLabel('Confirmer le mot de passe').fill('Kiraa2026!');
  // Sent as a hostile client would: the metadata with a control character.
  await context.route(`${e2e.apiUrl}/auth/v1/signup**`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as {
      data?: Record<string, unknown>;
    };
    body.data = { ...body.data, name: 'Samira\u0007' };
    await route.continue({
      url: route.request().url().replace(e2e.apiUrl, stack.apiUrl),
      postData: JSON.stringify(body),
    });
  });
  await form.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(
    page.getByText('Le nom complet est requis, en 100 caractères au plus, sans retour à la ligne.'),
  ).toBeVisible();
});
