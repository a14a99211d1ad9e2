import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as Push from '@/infra/push';
import { pushSupport, PUSH_DECLINED_KEY } from '@/infra/push';
import { db } from '@/infra/db';
import { enablePush } from '@/sync/news';
import type * as News from '@/sync/news';
import { localBooking } from '@/sync/testing/bookings';

import PushOptIn from '@/features/booking/push-opt-in';

vi.mock('@/infra/supabase', () => ({ supabase: {}, guestClient: () => ({}) }));
vi.mock('@/infra/push', async (importOriginal) => ({
  ...(await importOriginal<typeof Push>()),
  pushSupport: vi.fn(() => 'supported'),
  pushPermission: vi.fn(() => 'default'),
}));
vi.mock('@/sync/news', async (importOriginal) => ({
  ...(await importOriginal<typeof News>()),
  enablePush: vi.fn(async () => 'denied'),
}));

const held = localBooking({
  user_id: null,
  status: 'pending',
  sync_state: 'awaiting',
  is_guest: true,
});

function show(booking = held) {
  return render(
    <I18nProvider i18n={i18n}>
      <PushOptIn booking={booking} userId={null} />
    </I18nProvider>,
  );
}

beforeEach(async () => {
  i18n.load('fr', {});
  i18n.activate('fr');
  localStorage.clear();
  await db.meta.clear();
  vi.mocked(pushSupport).mockReturnValue('supported');
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('the offer to be notified', () => {
  it('is made once the server holds the booking, and asks the browser only on the click', async () => {
    show();
    expect((await screen.findByTestId('push-opt-in')).textContent).toContain(
      'nous vous prévenons dès que l’agence accepte ou refuse',
    );
    expect(enablePush).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('push-enable'));
    await waitFor(() => expect(enablePush).toHaveBeenCalledTimes(1));
    // Refused: the offer goes away (the bell and the checks keep working).
    await waitFor(() => expect(screen.queryByTestId('push-opt-in')).toBeNull());
  });

  it('remembers "not now"', async () => {
    show();
    fireEvent.click(await screen.findByTestId('push-later'));
    expect(screen.queryByTestId('push-opt-in')).toBeNull();
    expect(localStorage.getItem(PUSH_DECLINED_KEY)).not.toBeNull();
    cleanup();
    show();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('push-opt-in')).toBeNull();
  });

  it('says how on iOS outside the Home Screen, and nothing where push is missing or too early', async () => {
    vi.mocked(pushSupport).mockReturnValue('needs-home-screen');
    show();
    expect((await screen.findByTestId('push-home-screen')).textContent).toContain(
      'écran d’accueil',
    );
    cleanup();
    vi.mocked(pushSupport).mockReturnValue('unsupported');
    show();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('push-opt-in')).toBeNull();
    cleanup();
    vi.mocked(pushSupport).mockReturnValue('supported');
    show({ ...held, sync_state: 'queued', status: 'queued' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('push-opt-in')).toBeNull();
  });
});
