/**
 * Opening hours in the wizard and on the staff page (docs/opening-hours.md), against the real
 * stack and the seed's hours (airports 06:00–23:00 every day, city agencies 08:00–19:00 but
 * Friday), on a phone (390 px), in French and in Arabic: the times offered differ between the
 * airport and the city agency, a closed day is explained, and the step refuses a closed place.
 * axe on the staff page.
 */
import { randomInt } from 'node:crypto';

import { expectAccessible } from './support/a11y.ts';
import { algiersDay, PDF } from './support/booking-journey.ts';
import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi } from './support/session.ts';

const PHONE = { width: 390, height: 844 };
const ALG = '10c00000-0000-4000-8000-000000000021';
const ALGER_CENTRE = '10c00000-0000-4000-8000-000000000001';
const HASSI_MESSAOUD = '10c00000-0000-4000-8000-000000000010';
const CAR = 'ca000000-0000-4000-8000-000000000001';

/** A Thursday 20–200 days ahead (the next day is a Friday, when city agencies close). */
function thursday(): number {
  let day = 20 + randomInt(180);
  while (new Date(`${algiersDay(day)}T12:00:00Z`).getUTCDay() !== 4) day += 1;
  return day;
}

test.describe('opening hours', () => {
  test.use({ viewport: PHONE });

  for (const locale of ['fr', 'ar'] as const) {
    test(`the wizard offers each place's own times and explains a closed day (${locale})`, async ({
      page,
    }) => {
      const day = thursday();
      await page.goto('/home');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      // Pickup Thursday 05:00 (before every place opens), return Friday 10:00.
      await page.goto(
        `/cars/book?car=${CAR}&start=${algiersDay(day)}T05:00&end=${algiersDay(day + 1)}T10:00`,
      );
      if (locale === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByTestId('wizard-step')).toContainText('1');
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('2');
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('3');

      const pickup = page.locator('select[name="pickup_location_id"]');
      const pickupHours = page.getByTestId('pickup-hours');
      const returnHours = page.getByTestId('return-hours');
      const choices = page.getByTestId('pickup-time-choice').locator('option');

      // The airport: 06:00–23:00, open on Friday.
      await pickup.selectOption(ALG);
      await expect(pickupHours).toHaveAttribute('data-open', 'false');
      await expect(pickupHours).toContainText('06:00');
      await expect(choices.nth(1)).toHaveText('06:00');
      await expect(choices.last()).toHaveText('23:00');
      await expect(returnHours).toHaveAttribute('data-open', 'true');

      // The city agency: 08:00–19:00, closed on Friday, said in words.
      await pickup.selectOption(ALGER_CENTRE);
      await expect(choices.nth(1)).toHaveText('08:00');
      await expect(choices.last()).toHaveText('19:00');
      await expect(returnHours).toHaveAttribute('data-closed', 'closed_weekday');
      await expect(returnHours).toContainText(locale === 'fr' ? 'Fermé le' : 'مغلق يوم');

      // A time inside the hours is taken here; the Friday return still stops the step.
      await page.getByTestId('pickup-time-choice').selectOption('09:00');
      await expect(pickupHours).toHaveAttribute('data-open', 'true');
      await page.locator('input[name="driver_option"][value="self"]').check();
      await page.getByTestId('licence-input').setInputFiles({
        name: 'permis.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('3');
      await expect(pickup).toHaveAttribute('aria-invalid', 'true');
      const layoutWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(layoutWidth).toBeLessThanOrEqual(PHONE.width);

      // Returned at the airport instead: the step passes.
      await page.locator('input[name="dropoff_same"]').uncheck();
      await page.locator('select[name="dropoff_location_id"]').selectOption(ALG);
      await expect(returnHours).toHaveAttribute('data-open', 'true');
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('4');
    });
  }

  test('staff edit a place’s closed days; the page is accessible', async ({ page, e2e }) => {
    await signInStaffThroughUi(page, '/staff/places');
    await expect(page.getByRole('heading', { level: 1, name: 'Lieux et horaires' })).toBeVisible();
    const place = page.locator(`[data-testid="staff-place"][data-place="${HASSI_MESSAOUD}"]`);
    await expect(place).toContainText('vendredi fermé');
    await place.getByTestId('edit-hours').click();
    await expect(place.getByTestId('hours-day')).toHaveCount(7);
    await expectAccessible(page);
    const date = algiersDay(300 + randomInt(50));
    await place.getByTestId('closed-date-input').fill(date);
    await place.getByTestId('add-closed-date').click();
    await place.getByTestId('save-hours').click();
    await expect(place.getByTestId('save-hours')).toBeHidden();
    await expect(place).toContainText('Jours de fermeture');
    // Stored by the server (staff_set_opening_hours), as the catalogue sync will read it.
    const row = await fetch(
      `${e2e.apiUrl}/rest/v1/locations?id=eq.${HASSI_MESSAOUD}&select=closed_dates&apikey=${e2e.anonKey}`,
    ).then((r) => r.json() as Promise<Array<{ closed_dates: string[] }>>);
    expect(row[0]!.closed_dates).toContain(date);
  });
});
