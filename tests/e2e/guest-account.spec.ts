/**
 * A guest opens an account from the confirmation step (docs/decisions.md, "Guest bookings join an
 * account"), end to end: two guest bookings from one device and address, "also open my Kiraa
 * account", the code of GoTrue's mail from the dev mailbox, and the app lands signed in on My
 * bookings with both, confirmed, moved from guest to the account on the device and the server.
 */
import { waitForMail } from './support/accounts';
import { expectAccessible } from './support/a11y';
import { bookAsGuest, guest, pickRental, primeDevice, rest } from './support/booking-journey';
import { expect, test } from './support/fixtures';

test('a guest books, opens an account with the mailed code, and finds both bookings of this device in My bookings', async ({
  page,
  e2e,
}) => {
  test.setTimeout(180_000);
  const contact = guest('account');
  await primeDevice(page);
  const heading = page.getByTestId('booking-heading');

  // An earlier booking of this device, left unconfirmed.
  const earlier = await bookAsGuest(page, await pickRental(e2e), contact);
  await expect(heading).toHaveAttribute('data-stage', 'awaiting_confirmation', {
    timeout: 30_000,
  });
  const current = await bookAsGuest(page, await pickRental(e2e), contact);
  await expect(heading).toHaveAttribute('data-stage', 'awaiting_confirmation', {
    timeout: 30_000,
  });

  // The confirmation step: "also open my account", its two missing fields, then GoTrue's code.
  await page.getByLabel('Ouvrir aussi mon compte Kiraa avec cette adresse').check();
  const join = page.getByTestId('join-account');
  await expect(join).toContainText(contact.email);
  await join.getByRole('button', { name: 'Recevoir le code du compte' }).click();
  await expect(join.getByText('Indiquez votre âge : de 18 à 120 ans.')).toBeVisible();
  await expectAccessible(page, '#main');
  await join.getByLabel('Âge').fill('34');
  await join.getByLabel('Adresse').fill('12 rue Larbi Ben Mhidi, Oran');
  const asked = Date.now();
  await join.getByRole('button', { name: 'Recevoir le code du compte' }).click();
  await expect(join).toContainText('C’est un autre e-mail que celui de la réservation.');

  const mail = await waitForMail(contact.email, 20_000, (m) => m.text.includes('/auth/v1/verify'));
  const code = /\b(\d{8})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  expect(Date.now() - asked).toBeLessThan(20_000);
  await join.getByLabel('Code du compte reçu par e-mail').fill(code!);
  await join.getByRole('button', { name: 'Ouvrir mon compte' }).click();

  // Signed in, on My bookings, with both bookings of this device.
  await expect(page).toHaveURL(/\/mybookings$/, { timeout: 30_000 });
  for (const { reference } of [current, earlier]) {
    await expect(
      page.locator(`[data-testid="booking-item"][data-reference="${reference}"]`),
    ).toBeVisible();
  }
  await expect(page.getByTestId('user-menu-button')).toBeVisible();

  // On the server: the account's, confirmed (pending for staff, holding the car).
  const users = await rest(
    e2e,
    `profiles?select=id&full_name=eq.${encodeURIComponent(contact.name)}`,
  );
  expect(users).toHaveLength(1);
  const rows = await rest(
    e2e,
    `bookings?id=in.(${current.bookingId},${earlier.bookingId})&select=id,user_id,status,confirm_by`,
  );
  expect(rows).toHaveLength(2);
  for (const row of rows) {
    expect(row).toMatchObject({ user_id: users[0]!.id, status: 'pending', confirm_by: null });
  }

  // "Bookings made on this device" (guest) no longer lists them: they are the account's now.
  await page.goto(`/booking-success?id=${current.bookingId}`);
  await expect(heading).toHaveAttribute('data-stage', 'pending');
  await expect(page.getByTestId('confirm-contact')).toHaveCount(0);
});
