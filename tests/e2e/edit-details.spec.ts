/**
 * "Edit my details" (issue 20), end to end (real Chromium, the production build, the real stack):
 * a booking the server refuses for what was typed reopens the wizard at the contact step with
 * everything kept; corrected and confirmed, it reaches the server once, under its reference.
 * docs/offline-sync.md, "Refused for what was typed".
 */
import type { Page } from '@playwright/test';

import {
  ARABIC_LABELS,
  bookAsGuest,
  FRENCH_LABELS,
  guest,
  pickRental,
  primeDevice,
  rest,
  type WizardLabels,
} from './support/booking-journey';
import { expect, test } from './support/fixtures';

/** A name with direction marks as typed (issue 20): the server refuses it (`invalid_name`). */
const RAW_NAME = 'Amina \u202bBenali\u202c';

/**
 * Puts the raw name in the queued booking, as an app that did not clean it would have sent it
 * (today's wizard cleans what it sends: tests/api/typed-text.test.ts).
 */
async function queueRawName(page: Page, bookingId: string): Promise<void> {
  await page.evaluate(
    ({ id, name }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('kiraa');
        open.onerror = () => reject(new Error('no kiraa database'));
        open.onsuccess = () => {
          const tx = open.result.transaction(['outbox', 'bookings'], 'readwrite');
          const outbox = tx.objectStore('outbox');
          const all = outbox.getAll();
          all.onsuccess = () => {
            const entries = all.result as { kind: string; payload: { id?: string } }[];
            const create = entries.find((e) => e.kind === 'create_booking' && e.payload.id === id);
            if (!create) {
              reject(new Error('no queued creation'));
              return;
            }
            outbox.put({ ...create, payload: { ...create.payload, guest_name: name } });
            const bookings = tx.objectStore('bookings');
            const row = bookings.get(id);
            row.onsuccess = () => bookings.put({ ...row.result, guest_name: name });
          };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(new Error('not written'));
        };
      }),
    { id: bookingId, name: RAW_NAME },
  );
}

const journeys: { locale: 'fr' | 'ar'; labels: WizardLabels; step: string; edit: string }[] = [
  { locale: 'fr', labels: FRENCH_LABELS, step: 'Étape 4 sur 5', edit: 'Modifier mes informations' },
  { locale: 'ar', labels: ARABIC_LABELS, step: '4', edit: 'تعديل معلوماتي' },
];

for (const { locale, labels, step, edit } of journeys) {
  test(`${locale}: refused for the name → "Edit my details" → the wizard at the contact step, filled → fixed → sent once`, async ({
    page,
    context,
    e2e,
  }) => {
    test.setTimeout(150_000);
    const rental = await pickRental(e2e);
    await primeDevice(page);
    if (locale === 'ar') await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await context.setOffline(true);
    const contact = guest(`edit-${locale}`);
    const { reference, bookingId } = await bookAsGuest(page, rental, contact, undefined, labels);
    await queueRawName(page, bookingId);
    await context.setOffline(false);

    await expect(page.getByTestId('booking-heading')).toHaveAttribute(
      'data-stage',
      'needs_attention',
      { timeout: 30_000 },
    );
    // Refused for the name (invalid_name), and nothing of it stored by the server.
    if (locale === 'fr') {
      await expect(page.getByTestId('attention-reason')).toHaveText(
        'Le nom ne peut contenir ni retour à la ligne ni caractère de contrôle.',
      );
    }
    expect(await rest(e2e, `bookings?reference=eq.${reference}&select=id`)).toHaveLength(0);

    await page.getByRole('button', { name: edit }).click();
    await expect(page).toHaveURL(new RegExp(`/cars/book\\?edit=${bookingId}$`));
    // The step of the refused field, marked as the current one, with everything typed kept.
    await expect(page.getByTestId('wizard-step')).toContainText(step);
    await expect(page.locator('li[aria-current="step"]')).toHaveCount(1);
    await expect(page.locator('ol:has(> li[aria-current="step"]) > li').nth(3)).toHaveAttribute(
      'aria-current',
      'step',
    );
    await expect(page.getByLabel(labels.name)).toHaveValue(RAW_NAME);
    await expect(page.getByLabel(labels.phone)).toHaveValue(contact.phone);
    await expect(page.getByLabel(labels.email)).toHaveValue(contact.email);
    await expect(page.getByTestId('running-total')).toBeVisible();

    await page.getByLabel(labels.name).fill('Amina Benali');
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-step')).toContainText('5');
    await expect(page.getByTestId('accept-guarantee')).toBeChecked();
    await page.getByTestId('wizard-confirm').click();
    await expect(page).toHaveURL(new RegExp(`/booking-success\\?id=${bookingId}$`));
    await expect(page.getByTestId('booking-reference')).toHaveText(reference);

    await expect
      .poll(async () => rest(e2e, `bookings?reference=eq.${reference}&select=id,guest_name`), {
        timeout: 30_000,
      })
      .toEqual([{ id: bookingId, guest_name: 'Amina Benali' }]);
    await expect(page.getByTestId('booking-heading')).not.toHaveAttribute(
      'data-stage',
      'needs_attention',
    );
    // Sent once: no second booking of this guest.
    expect(
      await rest(e2e, `bookings?guest_email=eq.${encodeURIComponent(contact.email)}&select=id`),
    ).toHaveLength(1);

    // Sent, it can no longer be corrected from the wizard.
    if (locale === 'fr') {
      await page.goto(`/cars/book?edit=${bookingId}`);
      await expect(
        page.getByText('Cette réservation ne peut plus être modifiée ici', { exact: false }),
      ).toBeVisible();
      await expect(page.getByTestId('wizard-step')).toHaveCount(0);
    }
  });
}
