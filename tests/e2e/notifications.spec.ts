/**
 * The notification bell against the real stack: a staff status change reaches the signed-in
 * customer within the 30 s polling interval (no test hook: the real interval), opening it marks
 * it read here and on the server and leads to /mybookings; 'mark all read'; the activity page; the
 * cached list offline.
 */
import {
  newCustomer,
  newPendingBooking,
  staffSetStatus,
  type Customer,
} from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { signInThroughUi } from './support/session.ts';
import { workerInControl } from './support/worker.ts';

/** The polling interval (docs/product.md §9) and some slack for the request itself. */
const WITHIN_ONE_POLL = 30_000 + 8_000;

async function serverReadFlags(customer: Customer): Promise<boolean[]> {
  const { data, error } = await customer.client
    .from('notifications')
    .select('is_read')
    .eq('user_id', customer.id);
  if (error) throw new Error(error.message);
  return (data as { is_read: boolean }[]).map((n) => n.is_read);
}

test.describe('notifications', () => {
  test('a staff decision shows in the bell within one poll; opening it marks it read', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const customer = await newCustomer('Sofia Amrani');
    const booking = await newPendingBooking(customer);

    await signInThroughUi(page, customer);
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('notification-dot')).toHaveCount(0);
    await bell.click();
    await expect(page.getByTestId('notifications-empty')).toContainText('Aucune notification !');
    await page.keyboard.press('Escape');

    // Staff accept the booking: the database writes a booking_accepted notification.
    await staffSetStatus(booking.id, 'reserved');
    const dot = page.getByTestId('notification-dot');
    await expect(dot).toHaveText('1', { timeout: WITHIN_ONE_POLL });
    await expect(bell).toHaveAccessibleName('Notifications (1 non lues)');

    await bell.click();
    // docs/product.md §9: a list 280 px high in a panel at least 280 px wide (340 px from 640 px up).
    const panel = page.getByTestId('notification-panel');
    expect((await panel.boundingBox())?.height).toBeCloseTo(280, 2);
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    expect((await dialog.boundingBox())?.width).toBeGreaterThanOrEqual(280);
    const item = panel.getByTestId('notification-item');
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expect(item).toHaveAttribute('data-category', '1');
    await expect(item).toContainText('Réservation acceptée');

    // Caught on the navigation itself: it holds whether or not /mybookings is routed yet.
    const toMyBookings = page.waitForURL(/\/mybookings$/);
    await item.click();
    await toMyBookings;
    await expect(dot).toHaveCount(0);
    // The outbox carries the write to the server.
    await expect.poll(() => serverReadFlags(customer), { timeout: 20_000 }).toEqual([true]);
  });

  test("'mark all read', the activity page, and the list kept offline", async ({
    page,
    context,
  }) => {
    test.setTimeout(150_000);
    const customer = await newCustomer('Walid Cherif');
    const booking = await newPendingBooking(customer);
    await staffSetStatus(booking.id, 'reserved');
    await staffSetStatus(booking.id, 'cancelled');

    await page.setViewportSize({ width: 1280, height: 800 });
    await signInThroughUi(page, customer);
    const dot = page.getByTestId('notification-dot');
    await expect(dot).toHaveText('2');
    const bell = page.getByTestId('notification-bell');
    await bell.click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    expect((await dialog.boundingBox())?.width).toBeGreaterThanOrEqual(340);
    const items = page.getByTestId('notification-panel').getByTestId('notification-item');
    // Newest first: cancelled (4), then accepted (1).
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toHaveAttribute('data-category', '4');
    await expect(items.nth(0)).toContainText('Réservation annulée');
    await expect(items.nth(1)).toHaveAttribute('data-category', '1');

    await page.getByRole('button', { name: 'Tout marquer comme lu' }).click();
    await expect(dot).toHaveCount(0);
    await expect(items.nth(0)).toHaveAttribute('data-unread', 'false');
    await expect(items.nth(1)).toHaveAttribute('data-unread', 'false');
    await expect.poll(() => serverReadFlags(customer), { timeout: 20_000 }).toEqual([true, true]);

    await page.getByRole('link', { name: "Voir toute l'activité" }).click();
    await expect(page).toHaveURL(/\/concepts\/account\/activity-log$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Activité' })).toBeVisible();
    const logItems = page.getByRole('main').getByTestId('notification-item');
    await expect(logItems).toHaveCount(2);

    // Offline, the cached notifications still show (Dexie), and nobody is signed out.
    await workerInControl(page);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Activité' })).toBeVisible();
    await expect(logItems).toHaveCount(2);
    await expect(page.getByTestId('user-menu-button')).toBeVisible();
    await context.setOffline(false);
  });
});
