/**
 * Booking journeys end to end: real Chromium, the production build with its service worker, the
 * real local stack. A guest books with no network at all and the booking reaches the server
 * exactly once; a page closed in the middle of a flush; two devices booking the same car offline;
 * a server that answers 503 for a while.
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';

import {
  bookAsGuest,
  confirmByMail,
  guest,
  PDF,
  pickRental,
  primeDevice,
  rest,
} from './support/booking-journey';
import type { E2eEnv } from './support/env';
import { expect, test } from './support/fixtures';

/** Node 20 has no WebSocket and the local stack no Realtime: a transport that never connects. */
class NoRealtime {
  constructor() {
    throw new Error('Realtime is not available in the local stack.');
  }
}

async function serverBookings(e2e: E2eEnv, reference: string) {
  return rest(e2e, `bookings?reference=eq.${reference}&select=id,status,license_path,car_id`);
}

async function newDevice(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'UTC',
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'allow',
  });
}

test.describe('booking offline', () => {
  test('a guest books with no network, licence included; it lands exactly once when back online', async ({
    page,
    context,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    const contact = guest('offline');
    await primeDevice(page);

    // No network at all from here: the wizard, the licence and the confirmation work offline.
    await context.setOffline(true);
    const { reference, bookingId } = await bookAsGuest(page, rental, contact);
    await expect(page.getByTestId('sync-state')).toHaveAttribute('data-state', 'queued');

    // Still offline, the app reloaded: the booking and its reference are still there.
    await page.reload();
    await expect(page.getByTestId('booking-reference')).toHaveText(reference);
    await expect(page.getByTestId('sync-state')).toHaveAttribute('data-state', 'queued');
    expect(await serverBookings(e2e, reference)).toHaveLength(0);

    // Back online: the outbox flushes (the page's engine or the service worker's sync).
    await context.setOffline(false);
    await expect(page.getByTestId('sync-state')).toHaveAttribute('data-state', 'awaiting', {
      timeout: 30_000,
    });
    const rows = await serverBookings(e2e, reference);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: bookingId, status: 'pending', car_id: rental.carId });

    // The licence is in its bucket, byte for byte.
    const service = createClient(e2e.apiUrl, e2e.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: NoRealtime as never },
    });
    const { data: file, error } = await service.storage
      .from('licenses')
      .download(String(rows[0]!.license_path));
    expect(error).toBeNull();
    expect(Buffer.from(await file!.arrayBuffer()).equals(PDF)).toBe(true);

    // "Find my booking" lists it from the device, and the online lookup finds it.
    await page.goto('/guest-booking');
    await expect(
      page.locator(`[data-testid="booking-card"][data-reference="${reference}"]`).first(),
    ).toBeVisible();
    await page.getByLabel('Référence de réservation').fill(reference.toLowerCase());
    await page.getByLabel('E-mail ou téléphone').fill(contact.email);
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByTestId('lookup-result')).toContainText(reference);

    // A wrong contact finds nothing, with the spec's message.
    await page.getByLabel('E-mail ou téléphone').fill('someone-else@kiraa.test');
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByTestId('lookup-not-found')).toHaveText(
      'Aucune réservation trouvée pour les informations fournies.',
    );
  });

  test('two devices book the same car for the same dates offline: one lands, the other needs attention', async ({
    browser,
    e2e,
  }) => {
    test.setTimeout(180_000);
    const rental = await pickRental(e2e);
    const deviceA = await newDevice(browser, e2e.appUrl);
    const deviceB = await newDevice(browser, e2e.appUrl);
    try {
      const pageA = await deviceA.newPage();
      const pageB = await deviceB.newPage();
      await primeDevice(pageA);
      await primeDevice(pageB);
      await deviceA.setOffline(true);
      await deviceB.setOffline(true);
      const guestA = guest('device-a');
      const a = await bookAsGuest(pageA, rental, guestA);
      const b = await bookAsGuest(pageB, rental, guest('device-b'));
      expect(a.reference).not.toBe(b.reference);

      await deviceA.setOffline(false);
      await expect(pageA.getByTestId('sync-state')).toHaveAttribute('data-state', 'awaiting', {
        timeout: 30_000,
      });
      // A's traveller types the code: A holds the car now (unconfirmed, it would hold none).
      await confirmByMail(guestA.email, a.reference);
      await deviceB.setOffline(false);
      await expect(pageB.getByTestId('sync-state')).toHaveAttribute(
        'data-state',
        'needs_attention',
        { timeout: 30_000 },
      );
      await expect(pageB.getByTestId('attention-reason')).toHaveText(
        'Cette voiture a été réservée par quelqu’un d’autre pour ces dates.',
      );
      // The reason first: no generic "an error occurred, try again", no Retry that cannot pass.
      await expect(pageB.getByText('Une erreur est survenue')).toHaveCount(0);
      await expect(pageB.getByRole('button', { name: 'Réessayer', exact: true })).toHaveCount(0);
      // Other cars free for the same dates are offered, from the device's catalogue, with what
      // tells them apart (year, fuel, gearbox) and the trip's total.
      const alternatives = pageB.getByTestId('alternative');
      await expect(alternatives.first()).toBeVisible();
      await expect(alternatives.first().getByTestId('alternative-identity')).toHaveText(
        /^\d{4} · .+ · (Automatique|Manuelle)$/,
      );
      await expect(alternatives.first().getByTestId('alternative-total')).toContainText('DZD');

      expect(await serverBookings(e2e, a.reference)).toHaveLength(1);
      expect(await serverBookings(e2e, b.reference)).toHaveLength(0);

      // One tap does not send: it shows what changes and the new total, then sends on confirm.
      await alternatives.first().getByRole('button', { name: 'Voir cette voiture' }).click();
      const review = pageB.getByTestId('alternative-review');
      await expect(review).toContainText('Total :');
      await expect(review).toContainText('→');
      expect(await serverBookings(e2e, b.reference)).toHaveLength(0);
      await review.getByTestId('alternative-confirm').click();
      await expect(pageB.getByTestId('sync-state')).toHaveAttribute('data-state', 'awaiting', {
        timeout: 30_000,
      });
      const landed = await serverBookings(e2e, b.reference);
      expect(landed).toHaveLength(1);
      expect(landed[0]!.car_id).not.toBe(rental.carId);
    } finally {
      await deviceA.close();
      await deviceB.close();
    }
  });
});

test.describe('booking against a failing or vanishing connection', () => {
  // page.route sees only the page's own requests: the service worker (and its background sync)
  // is kept out of these two journeys so every request goes through the route.
  test.use({ serviceWorkers: 'block' });

  test('the server answers 503 for a while: the entry retries with backoff and lands', async ({
    page,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    await page.goto('/cars');
    await expect(page.getByTestId('car-link').first()).toBeVisible({ timeout: 30_000 });

    const failures = 4;
    const seen: { url: string; status: number; at: number }[] = [];
    const { reference } = await bookAsGuest(page, rental, guest('flaky'), async () => {
      await page.route(`${e2e.apiUrl}/**`, async (route) => {
        const request = route.request();
        const write =
          request.method() === 'POST' &&
          /\/rpc\/create_booking|\/storage\/v1\/object\/licenses\//.test(request.url());
        if (!write) return route.continue();
        if (seen.filter((s) => s.status === 503).length < failures) {
          seen.push({ url: request.url(), status: 503, at: Date.now() });
          return route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Service Unavailable' }),
          });
        }
        seen.push({ url: request.url(), status: 200, at: Date.now() });
        return route.continue();
      });
    });

    // The reference is shown at once, whatever the server does.
    await expect(page.getByTestId('sync-state')).toBeVisible();
    await expect(page.getByTestId('sync-state')).toHaveAttribute('data-state', 'awaiting', {
      timeout: 60_000,
    });
    expect(seen.filter((s) => s.status === 503)).toHaveLength(failures);
    // Backoff, not a tight loop: every retry waited at least the first delay (200 ms). The
    // doubling itself is held by the sync machine's and the outbox's unit tests (fake time);
    // wall-clock gaps here also carry the machine's load.
    const gaps = seen.slice(1, failures + 1).map((s, i) => s.at - seen[i]!.at);
    expect(gaps.every((gap) => gap >= 150)).toBe(true);
    expect(await serverBookings(e2e, reference)).toHaveLength(1);
  });

  test('the page is closed in the middle of a flush and reopened: still exactly one booking', async ({
    page,
    context,
    e2e,
  }) => {
    const rental = await pickRental(e2e);
    await page.goto('/cars');
    await expect(page.getByTestId('car-link').first()).toBeVisible({ timeout: 30_000 });

    let reachedServer: () => void = () => {};
    const createdOnServer = new Promise<void>((resolve) => (reachedServer = resolve));
    const { reference, bookingId } = await bookAsGuest(page, rental, guest('closed'), async () => {
      await page.route('**/rest/v1/rpc/create_booking', async (route) => {
        // The request reaches the server (the booking is created) but the page never hears back.
        await route.fetch();
        reachedServer();
      });
    });
    await createdOnServer;
    await page.close();
    expect(await serverBookings(e2e, reference)).toHaveLength(1);

    // Reopened: the engine flushes on start; the replayed create_booking is idempotent on the id.
    const reopened = await context.newPage();
    await reopened.goto(`/booking-success?id=${bookingId}`);
    await expect(reopened.getByTestId('booking-reference')).toHaveText(reference);
    await expect(reopened.getByTestId('sync-state')).toHaveAttribute('data-state', 'awaiting', {
      timeout: 30_000,
    });
    expect(await serverBookings(e2e, reference)).toHaveLength(1);
    await expect(reopened.getByTestId('sync-phase')).toHaveAttribute('data-phase', 'idle');
    await expect(reopened.getByTestId('sync-phase')).toHaveText('Tout est envoyé.');
  });
});
