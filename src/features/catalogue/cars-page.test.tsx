import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { keepRunning } from '@/infra/background';
import { db } from '@/infra/db';
import { STATUS_KEY } from '@/sync/catalogue-sync';
import type * as CatalogueSyncModule from '@/sync/catalogue-sync';

import CarsPage from '@/features/catalogue/cars-page';
import { PAGE_SIZE } from '@/features/catalogue/first-cards';
import { activateFrench, renderRoute, resetCatalogue } from '@/features/catalogue/testing/render';
import { makeCar, syntheticCars } from '@/features/catalogue/testing/synthetic-cars';

// The screens only read IndexedDB; the network side is not under test here.
vi.mock('@/infra/background', () => ({ keepRunning: vi.fn() }));
vi.mock('@/sync/catalogue-sync', async (importOriginal) => ({
  ...(await importOriginal<typeof CatalogueSyncModule>()),
  catalogueSync: { sync: vi.fn(), refreshReviews: vi.fn(), running: () => false },
}));

const clio = makeCar({
  name: 'Renault Clio 5',
  slug: 'renault-clio-5',
  transmission: 'manual',
  daily_rate_dzd: 4_500,
  features: ['air_conditioning'],
});
const tucson = makeCar({
  name: 'Hyundai Tucson',
  slug: 'hyundai-tucson',
  make: 'Hyundai',
  model: 'Tucson',
  body: 'suv',
  transmission: 'automatic',
  daily_rate_dzd: 12_000,
  features: ['air_conditioning', 'gps', 'sunroof'],
});
const picanto = makeCar({
  name: 'Kia Picanto',
  slug: 'kia-picanto',
  make: 'Kia',
  model: 'Picanto',
  transmission: 'automatic',
  daily_rate_dzd: 3_500,
  passengers: 4,
  features: [],
});
const retired = makeCar({ name: 'Old Logan', slug: 'old-logan', active: false });

const synced = { state: 'idle', last_success_at: '2026-11-22T09:30:00Z', last_error: null };

async function seed(cars = [clio, tucson, picanto, retired], status: object = synced) {
  await db.cars.bulkPut(cars);
  await db.meta.put({ key: STATUS_KEY, value: status });
}

const names = () =>
  within(screen.getByTestId('car-list'))
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

beforeEach(async () => {
  activateFrench();
  await resetCatalogue();
});

afterEach(cleanup);

describe('/cars', () => {
  it('lists the active cars from IndexedDB with their count and last update', async () => {
    await seed();
    renderRoute('/cars', '/cars', <CarsPage />);
    expect(await screen.findByText('3 voitures')).toBeTruthy();
    expect(names().sort()).toEqual(['Hyundai Tucson', 'Kia Picanto', 'Renault Clio 5']);
    // 09:30 UTC is 10:30 in Algiers.
    expect(screen.getByTestId('last-updated').textContent).toMatch(/10:30/);
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('3 voitures');
    expect(keepRunning).toHaveBeenCalledWith('catalogue');
  });

  it('shows a running update beside the title, leaving the last-update line as it is', async () => {
    await seed(undefined, { ...synced, state: 'syncing' });
    renderRoute('/cars', '/cars', <CarsPage />);
    await screen.findByText('3 voitures');
    const line = screen.getByTestId('last-updated');
    const text = line.textContent;
    expect(text).toMatch(/10:30/);
    const updating = screen.getByTestId('catalogue-updating');
    expect(updating.textContent).toBe('Mise à jour…');
    expect(updating.parentElement).toBe(screen.getByRole('heading', { level: 1 }).parentElement);
    expect(screen.getAllByText('Mise à jour…')).toHaveLength(1);

    await act(() => db.meta.put({ key: STATUS_KEY, value: synced }));
    await waitFor(() => expect(screen.queryByTestId('catalogue-updating')).toBeNull());
    expect(screen.getByTestId('last-updated')).toBe(line);
    expect(line.textContent).toBe(text);
  });

  it('searches as you type and mirrors the filters in the URL', async () => {
    await seed();
    const { router } = renderRoute('/cars', '/cars', <CarsPage />);
    await screen.findByText('3 voitures');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'tucson');
    expect(names()).toEqual(['Hyundai Tucson']);
    expect(screen.getByTestId('result-count').textContent).toBe('1 voiture');
    await waitFor(() => expect(router.state.location.search).toBe('?q=tucson'));
  });

  it('applies the filters of a shared URL', async () => {
    await seed();
    renderRoute('/cars', '/cars?transmission=automatic&max=5000', <CarsPage />);
    expect(await screen.findByText('1 voiture')).toBeTruthy();
    expect(names()).toEqual(['Kia Picanto']);
    expect(screen.getByRole('radio', { name: 'Automatique' })).toHaveProperty('checked', true);
    expect(screen.getByRole('spinbutton', { name: 'Maximum' })).toHaveProperty('value', '5000');
  });

  it('follows the URL when it changes from outside (back, forward, a link)', async () => {
    await seed();
    const { router } = renderRoute('/cars', '/cars?q=clio', <CarsPage />);
    expect(await screen.findByText('1 voiture')).toBeTruthy();
    await act(() => router.navigate('/cars?transmission=automatic'));
    expect(await screen.findByText('2 voitures')).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Rechercher' })).toHaveProperty('value', '');
    await act(() => router.navigate(-1));
    expect(await screen.findByText('1 voiture')).toBeTruthy();
    expect(names()).toEqual(['Renault Clio 5']);
  });

  it('filters by features, passengers and transmission from the form', async () => {
    await seed();
    const { router } = renderRoute('/cars', '/cars', <CarsPage />);
    await screen.findByText('3 voitures');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Climatisation' }));
    expect(names().sort()).toEqual(['Hyundai Tucson', 'Renault Clio 5']);
    fireEvent.click(screen.getByRole('radio', { name: 'Automatique' }));
    expect(names()).toEqual(['Hyundai Tucson']);
    fireEvent.click(screen.getByRole('radio', { name: 'Toutes' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Climatisation' }));
    fireEvent.click(screen.getByRole('radio', { name: '5' }));
    expect(names().sort()).toEqual(['Hyundai Tucson', 'Renault Clio 5']);
    await waitFor(() => expect(router.state.location.search).toBe('?passengers=5'));
  });

  it('says so when nothing matches, and resets the filters', async () => {
    await seed();
    renderRoute('/cars', '/cars?q=ferrari', <CarsPage />);
    expect(await screen.findByText('Aucune voiture ne correspond à vos critères')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Effacer les filtres' })[0]!);
    expect(await screen.findByText('3 voitures')).toBeTruthy();
  });

  it('shows the fetch error only when nothing is cached', async () => {
    const failed = { state: 'error', last_success_at: null, last_error: 'Failed to fetch' };
    await db.meta.put({ key: STATUS_KEY, value: failed });
    renderRoute('/cars', '/cars', <CarsPage />);
    expect(
      await screen.findByText('Erreur lors du chargement des voitures. Veuillez réessayer.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeTruthy();
  });

  it('keeps showing the cached cars when an update fails', async () => {
    await seed(undefined, { ...synced, state: 'error', last_error: 'Failed to fetch' });
    renderRoute('/cars', '/cars', <CarsPage />);
    expect(await screen.findByText('3 voitures')).toBeTruthy();
    expect(screen.queryByText(/Erreur lors du chargement/)).toBeNull();
    expect(screen.getByText('La dernière mise à jour a échoué.')).toBeTruthy();
  });

  it('hides cars that are busy at the chosen dates and carries the dates to the car page', async () => {
    await seed();
    await db.busy.put({
      key: `${tucson.id}|x`,
      car_id: tucson.id,
      start_at: '2027-03-10T09:00:00Z',
      end_at: '2027-03-15T09:00:00Z',
    });
    renderRoute('/cars', '/cars?start=2027-03-12T10:00&end=2027-03-13T10:00', <CarsPage />);
    expect(await screen.findByText('2 voitures')).toBeTruthy();
    expect(names()).not.toContain('Hyundai Tucson');
    expect(screen.getByRole('link', { name: 'Kia Picanto' }).getAttribute('href')).toBe(
      '/cars/kia-picanto?start=2027-03-12T10%3A00&end=2027-03-13T10%3A00',
    );
  });

  // happy-dom lays out a few dozen cards slowly; Chromium does it in milliseconds (bench).
  it('renders a page of cards at a time', { timeout: 20_000 }, async () => {
    await seed(syntheticCars(PAGE_SIZE + 6));
    renderRoute('/cars', '/cars', <CarsPage />);
    expect(await screen.findByText(`${PAGE_SIZE + 6} voitures`)).toBeTruthy();
    expect(names()).toHaveLength(PAGE_SIZE);
    fireEvent.click(screen.getByRole('button', { name: /Afficher plus/ }));
    expect(names()).toHaveLength(PAGE_SIZE + 6);
  });

  it('follows a sync that lands while the page is open', async () => {
    await seed();
    renderRoute('/cars', '/cars', <CarsPage />);
    await screen.findByText('3 voitures');
    await act(() => db.cars.put({ ...picanto, active: false }));
    expect(await screen.findByText('2 voitures')).toBeTruthy();
    await act(() => db.cars.put({ ...clio, daily_rate_dzd: 4_900 }));
    await waitFor(() =>
      expect(screen.getAllByTestId('car-price').map((p) => p.textContent)).toContainEqual(
        expect.stringMatching(/4\s?900/),
      ),
    );
  });

  it('does not cancel the way to a car when the URL was about to follow the search', async () => {
    await seed();
    // The car's screen is a lazy chunk that takes a moment, as it does in the app.
    const { router } = renderRoute('/cars', '/cars', <CarsPage />, [
      {
        path: '/cars/:slug',
        lazy: () =>
          new Promise((resolve) =>
            setTimeout(() => resolve({ Component: () => <h1>Details</h1> }), 400),
          ),
      },
    ]);
    await screen.findByText('3 voitures');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Rechercher' }), {
      target: { value: 'picanto' },
    });
    fireEvent.click(screen.getByRole('link', { name: 'Kia Picanto' }));
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(router.state.location.pathname).toBe('/cars/kia-picanto');
  });
});
