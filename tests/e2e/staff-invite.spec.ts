/**
 * A staff invitation end to end (docs/auth.md, "Staff invitations"): the demo admin at aal2 invites
 * from /staff/team (the invite-staff Edge Function); the invitee reads the code in the mailbox,
 * types it on /accept-invite, chooses a password, is led to the staff area, enrols TOTP and
 * reaches the board. axe on both forms.
 */
import { totpCode } from '../support/mfa.ts';
import { parseAuthMail, waitForMailAt } from '../support/supabase.ts';
import { expectAccessible } from './support/a11y.ts';
import { uniqueEmail } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi } from './support/session.ts';

test('an admin invites; the invitee types the code, sets a password and enrols TOTP', async ({
  page,
  browser,
  baseURL,
  e2e,
}) => {
  const email = uniqueEmail('staff-invite');
  await signInStaffThroughUi(page, '/staff/team');
  const main = page.getByRole('main');
  await expect(
    main.getByRole('heading', { level: 1, name: 'Inviter un membre de l’équipe' }),
  ).toBeVisible();
  // Checked on the device first: nothing typed.
  await main.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(main.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  await main.getByLabel('E-mail').fill(email);
  await main.getByLabel('Nom complet').fill('Karim Saadi');
  await main.getByLabel('Téléphone').fill('+213555321987');
  await main.getByLabel('Âge').fill('41');
  await main.getByLabel('Adresse').fill('7 boulevard Zighout Youcef, Alger');
  await expectAccessible(page);
  await main.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(main.getByRole('status')).toHaveText(`Invitation envoyée à ${email}.`);

  const mail = await waitForMailAt(e2e.mailboxUrl, email);
  const { code } = parseAuthMail(mail.text);

  const context = await browser.newContext({ baseURL, locale: 'fr-FR', timezoneId: 'UTC' });
  const invitee = await context.newPage();
  await invitee.goto('/accept-invite');
  const form = invitee.getByRole('main');
  await form.getByLabel('Adresse e-mail').fill(email);
  await form.getByLabel('Code reçu par e-mail').fill(code);
  await expectAccessible(invitee);
  await form.getByRole('button', { name: 'Valider l’invitation' }).click();
  // Signed in by the code: the page names the account whose password is being chosen.
  await expect(invitee.getByText(email, { exact: true })).toBeVisible();
  await form.getByLabel('Mot de passe', { exact: true }).fill('Equipe-Kiraa-2026!');
  await form.getByLabel('Confirmer le mot de passe').fill('Equipe-Kiraa-2026!');
  await form.getByRole('button', { name: 'Enregistrer et continuer' }).click();

  await expect(invitee).toHaveURL(/\/staff$/);
  const gate = invitee.getByTestId('second-factor');
  await expect(gate).toHaveAttribute('data-step', 'enrol');
  await invitee.getByRole('button', { name: 'Configurer l’application' }).click();
  await expect(gate).toHaveAttribute('data-step', 'scan');
  const secret = (await invitee.getByTestId('second-factor-secret').textContent())!.trim();
  await invitee.getByLabel('Code à 6 chiffres').fill(totpCode(secret));
  await invitee.getByRole('button', { name: 'Activer' }).click();
  await expect(gate).toHaveCount(0);
  await expect(
    invitee.getByRole('heading', { level: 1, name: 'Réservations à gérer' }),
  ).toBeVisible();
  await context.close();
});
