import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as Background from '@/infra/background';
import type { LocalBooking } from '@/domain/local-booking';
import type { Car, Location } from '@/domain/rows';
import { db } from '@/infra/db';
import { dismissAllToasts, getToasts } from '@/infra/toast';
import { refreshMyBookings } from '@/sync/my-bookings-sync';
import type * as MyBookingsSync from '@/sync/my-bookings-sync';

import MyBookingsPage from '@/features/bookings/my-bookings-page';

vi.mock('@/infra/supabase', () => ({ supabase: {} }));
vi.mock('@/sync/sync-engine', () => ({ requestFlush: vi.fn() }));
vi.mock('@/infra/background', async (importOriginal) => ({
  ...(await importOriginal<typeof Background>()),
  keepRunning: vi.fn(),
}));
vi.mock('@/infra/session', () => ({
  useSession: () => ({ status: 'signedIn', user: { id: 'u1', authority: ['user'] } }),
}));
vi.mock('@/sync/my-bookings-sync', async (importOriginal) => ({
  ...(await importOriginal<typeof MyBookingsSync>()),
  refreshMyBookings: vi.fn(async () => true),
}));

const CAR = 'c0000000-0000-4000-8000-000000000001';
const PLACE = 'l0000000-0000-4000-8000-000000000001';
const AIRPORT = 'l0000000-0000-4000-8000-000000000002';

const car = {
  id: CAR,
  slug: 'renault-clio-5-2023',
  name: 'Renault Clio 5',
  images: ['/cars/renault-clio-5-2023-1.svg'],
  active: true,
} as Car;

const places = [
  { id: PLACE, kind: 'city', name: { fr: 'Alger Centre (agence)', en: 'Algiers', ar: 'الجزائر' } },
  { id: AIRPORT, kind: 'airport', name: { fr: 'Aéroport d’Alger', en: 'Airport', ar: 'مطار' } },
] as Location[];

function booking(reference: string, overrides: Partial<LocalBooking> = {}): LocalBooking {
  return {
    id: crypto.randomUUID(),
    reference,
    user_id: 'u1',
    guest_name: null,
    guest_phone: null,
    guest_email: null,
    car_id: CAR,
    start_at: '2027-03-12T09:00:00.000Z',
    end_at: '2027-03-15T09:00:00.000Z',
    pickup_location_id: PLACE,
    dropoff_location_id: AIRPORT,
    driver_option: 'provided',
    license_path: 'x/permis.png',
    flight_document_path: null,
    from_abroad: false,
    additional_requests: 'Siège enfant à l’arrière',
    extras: ['baby_seat'],
    insurance: ['civil_liability'],
    payment_method: 'cash',
    payment_status: 'unpaid',
    price: {
      days: 3,
      base: 16500,
      extras_total: 1500,
      insurance_total: 0,
      driver_total: 12000,
      pickup_fee: 0,
      dropoff_fee: 1500,
      subtotal: 31500,
      deposit: 50000,
      total: 31500,
      currency: 'DZD',
    },
    total_dzd: 31500,
    notes: null,
    status: 'pending',
    status_reason: null,
    created_at: '2027-03-01T09:00:00.000Z',
    updated_at: '2027-03-01T09:00:00.000Z',
    sync_state: 'awaiting',
    sync_error: null,
    is_guest: false,
    ...overrides,
  };
}

const pending = booking('KR-AAAA-0001');
const reserved = booking('KR-AAAA-0002', {
  status: 'reserved',
  sync_state: 'confirmed',
  start_at: '2027-04-01T09:00:00.000Z',
});
const completed = booking('KR-AAAA-0003', {
  status: 'completed',
  sync_state: 'confirmed',
  start_at: '2026-01-01T09:00:00.000Z',
});
const cancelled = booking('KR-AAAA-0004', {
  status: 'cancelled',
  sync_state: 'confirmed',
  status_reason: 'Véhicule en maintenance',
  start_at: '2026-02-01T09:00:00.000Z',
});
const someoneElse = booking('KR-ZZZZ-9999', { user_id: 'u2' });

function renderPage() {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/mybookings']}>
        <MyBookingsPage />
      </MemoryRouter>
    </I18nProvider>,
  );
}

const items = (panel: HTMLElement) =>
  within(panel)
    .queryAllByTestId('booking-item')
    .map((el) => el.dataset.reference);

beforeEach(async () => {
  i18n.load('fr', {});
  i18n.activate('fr');
  dismissAllToasts();
  await Promise.all([db.bookings, db.outbox, db.meta, db.cars, db.locations].map((t) => t.clear()));
  await db.cars.put(car);
  await db.locations.bulkPut(places);
  await db.extras.put({
    code: 'baby_seat',
    name: { fr: 'Siège bébé', en: 'Baby seat', ar: 'مقعد أطفال' },
    price_dzd: 500,
    per: 'day',
    active: true,
    updated_at: '',
  });
  await db.bookings.bulkPut([pending, reserved, completed, cancelled, someoneElse]);
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('/mybookings', () => {
  it('splits the user’s bookings into current and past tabs, refreshing from the server', async () => {
    renderPage();
    const current = await screen.findByRole('tab', { name: /En cours/ });
    await waitFor(() => expect(current.textContent).toContain('2'));
    expect(current.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /Passées/ }).textContent).toContain('2');
    const panel = screen.getByRole('tabpanel');
    expect(items(panel)).toEqual(['KR-AAAA-0001', 'KR-AAAA-0002']);
    expect(refreshMyBookings).toHaveBeenCalledWith('u1');

    const card = within(panel).getAllByTestId('booking-item')[0]!;
    expect(within(card).getByRole('heading', { name: 'Renault Clio 5' })).toBeTruthy();
    expect(within(card).getByTestId('booking-status').textContent).toBe('En attente de validation');
    expect(within(card).getByTestId('sync-row').dataset.sync).toBe('awaiting');
    // 09:00 UTC is 10:00 in Algiers, whatever the device's zone (TZ=UTC here).
    expect(card.textContent).toMatch(/10:00/);
    expect(card.textContent).not.toMatch(/09:00/);
    expect(card.textContent).toContain('Alger Centre (agence)');
    expect(card.textContent).toContain('Aéroport d’Alger');
    expect(within(card).getByTestId('booking-total').textContent).toMatch(/31\s?500\sDZD/);
  });

  it('moves between tabs with the arrow keys and shows the reason of a cancellation', async () => {
    renderPage();
    const current = await screen.findByRole('tab', { name: /En cours/ });
    act(() => current.focus());
    fireEvent.keyDown(current, { key: 'ArrowRight' });
    const past = screen.getByRole('tab', { name: /Passées/ });
    expect(past.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(past);
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(past.id);
    expect(items(panel)).toEqual(['KR-AAAA-0004', 'KR-AAAA-0003']);
    expect(within(panel).getByTestId('status-reason').textContent).toContain(
      'Véhicule en maintenance',
    );
  });

  it('shows an empty state per tab', async () => {
    await db.bookings.clear();
    renderPage();
    expect((await screen.findByTestId('bookings-empty')).textContent).toContain(
      'Aucune réservation en cours.',
    );
    fireEvent.click(screen.getByRole('tab', { name: /Passées/ }));
    expect(screen.getByTestId('bookings-empty').textContent).toContain(
      'Aucune réservation passée.',
    );
  });

  it('queues a cancellation after a confirmation that warns it cannot be undone; the card stays current', async () => {
    renderPage();
    const panel = await screen.findByRole('tabpanel');
    await waitFor(() => expect(items(panel)).toContain('KR-AAAA-0002'));
    const card = within(panel)
      .getAllByTestId('booking-item')
      .find((el) => el.dataset.reference === 'KR-AAAA-0002')!;
    fireEvent.click(within(card).getByRole('button', { name: 'Annuler la réservation' }));

    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('l’annulation est définitive');
    // Keeping it changes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Garder la réservation' }));
    expect(await db.outbox.count()).toBe(0);

    fireEvent.click(within(card).getByRole('button', { name: 'Annuler la réservation' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByTestId('confirm-cancel'));
    await waitFor(() =>
      expect(getToasts().map((t) => [t.kind, t.message])).toContainEqual([
        'success',
        'Annulation envoyée à l’agence : la réservation sera annulée dès sa réception.',
      ]),
    );
    const entries = await db.outbox.toArray();
    expect(entries).toMatchObject([
      { kind: 'cancel_booking', payload: { booking_id: reserved.id } },
    ]);
    // Until the server took it, the booking keeps its status and stays under "current", said
    // as a queued cancellation, never as "cancelled" (issue 20).
    expect((await db.bookings.get(reserved.id))?.status).toBe('reserved');
    const stays = await waitFor(() => {
      const el = within(screen.getByRole('tabpanel'))
        .getAllByTestId('booking-item')
        .find((e) => e.dataset.reference === 'KR-AAAA-0002')!;
      expect(within(el).getByTestId('sync-row').dataset.sync).toBe('cancel_queued');
      return el;
    });
    expect(within(stays).getByTestId('booking-status').textContent).toBe(
      'Annulation en attente d’envoi',
    );
    expect(stays.textContent).not.toContain('Annulée');
    expect(within(stays).queryByRole('button', { name: 'Annuler la réservation' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: /Passées/ }));
    expect(items(screen.getByRole('tabpanel'))).not.toContain('KR-AAAA-0002');
  });

  it('drops a booking that was never sent instead of sending a cancellation', async () => {
    const queued = booking('KR-QQQQ-0005', { status: 'queued', sync_state: 'queued' });
    await db.bookings.put(queued);
    await db.outbox.add({
      id: crypto.randomUUID(),
      kind: 'create_booking',
      payload: { id: queued.id },
      depends_on: [],
      seq: 1,
      attempts: 0,
      next_attempt_at: 0,
      state: 'pending',
      last_error: null,
      created_at: Date.now(),
    });
    renderPage();
    const panel = await screen.findByRole('tabpanel');
    await waitFor(() => expect(items(panel)).toContain('KR-QQQQ-0005'));
    const card = within(panel)
      .getAllByTestId('booking-item')
      .find((el) => el.dataset.reference === 'KR-QQQQ-0005')!;
    expect(within(card).getByTestId('sync-row').dataset.sync).toBe('queued');
    fireEvent.click(within(card).getByRole('button', { name: 'Annuler la réservation' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByTestId('confirm-cancel'));
    await waitFor(async () => expect(await db.bookings.get(queued.id)).toBeUndefined());
    expect(await db.outbox.count()).toBe(0);
  });

  it('reviews a completed booking once: 1 to 5 stars as radio buttons, a comment with its counter', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: /Passées/ }));
    const panel = screen.getByRole('tabpanel');
    await waitFor(() => expect(items(panel)).toContain('KR-AAAA-0003'));
    const card = () =>
      within(screen.getByRole('tabpanel'))
        .getAllByTestId('booking-item')
        .find((el) => el.dataset.reference === 'KR-AAAA-0003')!;
    // Only the completed one can be reviewed.
    expect(within(panel).getAllByRole('button', { name: 'Laisser un avis' })).toHaveLength(1);
    fireEvent.click(within(card()).getByRole('button', { name: 'Laisser un avis' }));

    const dialog = await screen.findByRole('dialog', { name: 'Laisser un avis' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer l’avis' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Choisissez une note de 1 à 5 étoiles.',
    );
    expect(await db.outbox.count()).toBe(0);

    const stars = within(dialog).getAllByRole('radio');
    expect(stars.map((s) => s.getAttribute('aria-label'))).toEqual([
      '1 étoile sur 5',
      '2 étoiles sur 5',
      '3 étoiles sur 5',
      '4 étoiles sur 5',
      '5 étoiles sur 5',
    ]);
    fireEvent.click(within(dialog).getByRole('radio', { name: '4 étoiles sur 5' }));
    expect(
      (within(dialog).getByRole('radio', { name: '4 étoiles sur 5' }) as HTMLInputElement).checked,
    ).toBe(true);
    const comment = within(dialog).getByLabelText('Votre commentaire (facultatif)');
    fireEvent.change(comment, { target: { value: 'Voiture propre, agence à l’heure.' } });
    expect(dialog.textContent).toContain('33 / 1000 caractères');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Envoyer l’avis' }));

    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain(
        'Avis envoyé : il paraîtra sur la page de la voiture.',
      ),
    );
    expect(await db.outbox.toArray()).toMatchObject([
      {
        kind: 'submit_review',
        payload: {
          booking_id: completed.id,
          rating: 4,
          comment: 'Voiture propre, agence à l’heure.',
        },
      },
    ]);
    await waitFor(() =>
      expect(within(card()).getByTestId('my-review').textContent).toContain('Voiture propre'),
    );
    expect(within(card()).getByRole('img', { name: '4 étoiles sur 5' })).toBeTruthy();
    // In the outbox, not on the server yet: said queued, not sent (issue 20).
    expect(within(card()).getByTestId('review-queued').textContent).toBe('Avis en attente d’envoi');
    expect(within(card()).queryByRole('button', { name: 'Laisser un avis' })).toBeNull();
    await db.outbox.clear();
    await waitFor(() => expect(within(card()).queryByTestId('review-queued')).toBeNull());
  });

  it('says so when the server later refuses a cancellation, with the reason', async () => {
    renderPage();
    const panel = await screen.findByRole('tabpanel');
    await waitFor(() => expect(items(panel)).toContain('KR-AAAA-0002'));
    const id = crypto.randomUUID();
    await db.outbox.add({
      id,
      kind: 'cancel_booking',
      payload: { booking_id: reserved.id },
      depends_on: [],
      seq: 1,
      attempts: 0,
      next_attempt_at: 0,
      state: 'pending',
      last_error: null,
      created_at: Date.now(),
    });
    await db.outbox.update(id, { state: 'parked', last_error: 'invalid_status_transition' });
    await waitFor(() =>
      expect(getToasts().map((t) => [t.kind, t.message])).toContainEqual([
        'error',
        'Votre annulation n’a pas été faite : l’agence avait déjà changé cette réservation (par exemple, la location a commencé). Pour l’annuler malgré tout, contactez l’agence.',
      ]),
    );
    // Once, in plain words: one toast, one notice on the card (no badge or hint repeating it).
    expect(getToasts().filter((t) => t.kind === 'error')).toHaveLength(1);
    const refused = await screen.findByTestId('cancel-refused');
    expect(refused.textContent).toContain('Votre annulation n’a pas été faite');
    expect(document.body.textContent).not.toContain('Erreur lors de l’annulation');
    expect(document.body.textContent).not.toContain('ne peut plus changer d’état');
    fireEvent.click(screen.getByRole('button', { name: 'J’ai compris' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  it('opens the details with the price breakdown, extras, driver option and requests', async () => {
    renderPage();
    const panel = await screen.findByRole('tabpanel');
    await waitFor(() => expect(items(panel)).toContain('KR-AAAA-0001'));
    const card = within(panel).getAllByTestId('booking-item')[0]!;
    fireEvent.click(within(card).getByRole('button', { name: 'Détails' }));
    const details = await screen.findByTestId('booking-details');
    const text = details.textContent ?? '';
    expect(text).toContain('Siège bébé');
    expect(text).toContain('Avec chauffeur');
    expect(text).toContain('Siège enfant à l’arrière');
    expect(text).toContain('À payer en espèces à la prise en charge');
    const price = within(details).getByTestId('price-breakdown');
    const value = (key: string) =>
      price.querySelector(`[data-fact="${key}"] dd`)?.textContent?.replace(/\s/g, ' ');
    expect(value('days')).toBe('3');
    expect(value('driver_total')).toMatch(/12 000 DZD/);
    expect(value('dropoff_fee')).toMatch(/1 500 DZD/);
    expect(value('total')).toMatch(/31 500 DZD/);
    expect(value('deposit')).toMatch(/50 000 DZD/);
  });
});
