import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as Background from '@/infra/background';
import type { Location } from '@/domain/rows';
import { db } from '@/infra/db';
import { STATUS_KEY } from '@/sync/catalogue-sync';

import HomePage from '@/features/catalogue/home-page';
import { activateFrench, renderRoute, resetCatalogue } from '@/features/catalogue/testing/render';
import { makeCar } from '@/features/catalogue/testing/synthetic-cars';

vi.mock('@/infra/background', async (importOriginal) => ({
  ...(await importOriginal<typeof Background>()),
  keepRunning: vi.fn(),
}));

const place = (id: string, kind: Location['kind'], fr: string, iata: string | null = null) => ({
  id,
  kind,
  iata,
  name: { fr, en: fr, ar: fr },
  delivery_fee_dzd: 0,
  active: true,
  updated_at: '2026-01-01T00:00:00Z',
});

// The page loads its live parts lazily (home-live.tsx). Loaded once here, so a `findBy` below
// waits for the page to render, not for the first transform of that module graph, which passes
// findBy's 1 s on a machine busy with other suites.
beforeAll(() => import('@/features/catalogue/home-live'));

beforeEach(async () => {
  activateFrench();
  await resetCatalogue();
  await db.locations.bulkPut([
    place('oran', 'city', 'Oran'),
    place('alg', 'airport', 'Alger — Houari Boumediene', 'ALG'),
    { ...place('old', 'city', 'Fermée'), active: false },
  ]);
  await db.cars.bulkPut([
    makeCar({ name: 'Top rated', rating_avg: 4.9, rating_count: 12 }),
    makeCar({ name: 'Second', rating_avg: 4.1, rating_count: 3 }),
    makeCar({ name: 'Retired star', rating_avg: 5, rating_count: 50, active: false }),
  ]);
});

afterEach(cleanup);

describe('/home', () => {
  it('states the promises and the guarantee', async () => {
    renderRoute('/home', '/home', <HomePage />);
    for (const claim of [
      'Livraison 24h/24, 7j/7',
      'Prise en charge à l’aéroport',
      'Chauffeur en option',
      'Meilleur prix garanti',
      'Différence remboursée à 100 %',
      'Plus de 500 clients satisfaits',
    ]) {
      expect(screen.getByRole('heading', { level: 3, name: claim })).toBeTruthy();
    }
    expect(screen.getByText('Une pièce d’identité originale valide')).toBeTruthy();
    expect(screen.getByText('Une caution en espèces')).toBeTruthy();
    expect(screen.getAllByRole('figure')).toHaveLength(3);
  });

  it('features the best-rated active cars', async () => {
    renderRoute('/home', '/home', <HomePage />);
    const list = await screen.findByTestId('featured-cars');
    expect(
      within(list)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Top rated', 'Second']);
  });

  it("keeps the cars' place on a first visit while the catalogue downloads, and says why when it failed", async () => {
    await db.cars.clear();
    const { container } = renderRoute('/home', '/home', <HomePage />);
    const featured = () => container.querySelector('section[aria-labelledby="home-featured"]')!;
    // Never synced, online, nothing yet: the grey cards, not "once connected".
    await waitFor(() => expect(featured().querySelectorAll('li.animate-pulse')).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(featured().textContent).not.toContain('première connexion');
    await act(() =>
      db.meta.put({
        key: STATUS_KEY,
        value: { state: 'error', last_success_at: null, last_error: 'Failed to fetch' },
      }),
    );
    expect(
      await within(featured() as HTMLElement).findByText(
        'Le catalogue s’affichera dès la première connexion à internet.',
      ),
    ).toBeTruthy();
  });

  it('searches with a place and dates, leading to /cars with those filters', async () => {
    const { router } = renderRoute('/home', '/home', <HomePage />);
    const select = screen.getByRole('combobox', { name: 'Lieu de prise en charge' });
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choisir plus tard', 'Alger — Houari Boumediene (ALG)', 'Oran']),
    );
    fireEvent.change(select, { target: { value: 'alg' } });
    fireEvent.change(screen.getByLabelText('Date de prise en charge'), {
      target: { value: '2099-07-01' },
    });
    fireEvent.change(screen.getByLabelText('Heure de prise en charge'), {
      target: { value: '14:30' },
    });
    fireEvent.change(screen.getByLabelText('Date de retour'), { target: { value: '2099-07-05' } });
    fireEvent.click(screen.getByRole('button', { name: 'Voir les voitures disponibles' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cars'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      start: '2099-07-01T14:30',
      end: '2099-07-05T10:00',
      pickup: 'alg',
    });
  });
});
