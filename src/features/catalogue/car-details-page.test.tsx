import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as Background from '@/infra/background';
import { db } from '@/infra/db';
import { CAR_PHOTO_CLASS } from '@/sync/catalogue-prefetch';
import { catalogueSync, reviewsKey, STATUS_KEY } from '@/sync/catalogue-sync';
import type * as CatalogueSyncModule from '@/sync/catalogue-sync';

import CarDetailsPage from '@/features/catalogue/car-details-page';
import { activateFrench, renderRoute, resetCatalogue } from '@/features/catalogue/testing/render';
import { makeCar } from '@/features/catalogue/testing/synthetic-cars';

vi.mock('@/infra/background', async (importOriginal) => ({
  ...(await importOriginal<typeof Background>()),
  keepRunning: vi.fn(),
}));
vi.mock('@/sync/catalogue-sync', async (importOriginal) => ({
  ...(await importOriginal<typeof CatalogueSyncModule>()),
  catalogueSync: { sync: vi.fn(), refreshReviews: vi.fn(() => true), running: () => false },
}));

const car = makeCar({
  slug: 'hyundai-tucson-2024',
  name: 'Hyundai Tucson',
  make: 'Hyundai',
  model: 'Tucson',
  body: 'suv',
  seats: 5,
  doors: 5,
  passengers: 5,
  fuel: 'diesel',
  year: 2024,
  transmission: 'automatic',
  drive: 'awd',
  engine: '1.6 CRDi 136',
  mileage_km: 12_500,
  exterior_color: 'grey',
  interior_color: 'beige',
  features: ['air_conditioning', 'gps', 'parking_sensors'],
  description: {
    fr: 'SUV confortable pour les longues routes.',
    en: 'Comfortable SUV for long roads.',
    ar: 'سيارة مريحة للطرق الطويلة.',
  },
  daily_rate_dzd: 12_000,
  deposit_dzd: 80_000,
  images: ['/cars/hyundai-tucson-2024-1.svg', '/cars/hyundai-tucson-2024-2.svg'],
  rating_avg: 4.5,
  rating_count: 2,
});

const path = '/cars/:slug';

const synced = { state: 'idle', last_success_at: '2026-11-22T09:30:00Z', last_error: null };

beforeEach(async () => {
  activateFrench();
  await resetCatalogue();
  await db.meta.put({ key: STATUS_KEY, value: synced });
  await db.cars.put(car);
  await db.busy.put({
    key: `${car.id}|a`,
    car_id: car.id,
    start_at: '2099-03-10T09:00:00Z',
    end_at: '2099-03-15T09:00:00Z',
  });
});

afterEach(cleanup);

describe('/cars/:slug', () => {
  it('shows every field of the car in French', async () => {
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Hyundai Tucson' })).toBeTruthy();
    const specs = Object.fromEntries(
      within(screen.getByRole('region', { name: 'Caractéristiques' }))
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(specs).toEqual({
      Carrosserie: 'SUV',
      'Places et portes': '5 places, 5 portes',
      Passagers: '5',
      Carburant: 'Diesel',
      Année: '2024',
      'Boîte de vitesses': 'Automatique',
      Transmission: 'Transmission intégrale',
      Moteur: '1.6 CRDi 136',
      Kilométrage: expect.stringMatching(/^12\s?500 km$/),
      'Couleur extérieure': 'Gris',
      'Couleur intérieure': 'Beige',
    });
    const features = within(screen.getByRole('region', { name: 'Équipements' }));
    expect(features.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Climatisation',
      'GPS',
      'Capteurs de stationnement',
    ]);
    expect(screen.getByText('SUV confortable pour les longues routes.')).toBeTruthy();
    expect(screen.getByTestId('daily-rate').textContent).toMatch(/12\s?000\sDZD/);
    expect(screen.getByTestId('deposit').textContent).toMatch(/80\s?000\sDZD/);
    expect(screen.getByTestId('rating-summary').textContent).toContain('4,5 sur 5');
    expect(screen.getByTestId('rating-summary').textContent).toContain('2 avis');
  });

  it('has a keyboard gallery with text alternatives', async () => {
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    const first = await screen.findByRole('img', { name: 'Hyundai Tucson, photo 1 sur 2' });
    expect(first.getAttribute('width')).toBe('640');
    const thumbs = screen.getAllByRole('button', { name: /Hyundai Tucson, photo \d sur 2/ });
    expect(thumbs.map((b) => b.getAttribute('tabindex'))).toEqual(['0', '-1']);
    fireEvent.keyDown(thumbs[0]!, { key: 'ArrowRight' });
    expect(screen.getByRole('img', { name: 'Hyundai Tucson, photo 2 sur 2' })).toBeTruthy();
    expect(document.activeElement).toBe(thumbs[1]);
    fireEvent.click(screen.getByRole('button', { name: 'Photo suivante' }));
    expect(screen.getByRole('img', { name: 'Hyundai Tucson, photo 1 sur 2' })).toBeTruthy();
  });

  it('checks availability from the busy periods and books with the dates', async () => {
    renderRoute(
      path,
      '/cars/hyundai-tucson-2024?start=2099-03-12T10:00&end=2099-03-13T10:00&pickup=loc-1',
      <CarDetailsPage />,
    );
    // Nothing is claimed before the busy periods are read, then the conflict is named.
    await waitFor(() =>
      expect(screen.getByTestId('availability').textContent).toMatch(
        /^Déjà réservée du 10 mars 2099\D*10:00 au 15 mars 2099\D*10:00$/,
      ),
    );
    const pickupDate = screen.getByLabelText('Date de prise en charge');
    const returnDate = screen.getByLabelText('Date de retour');
    fireEvent.change(pickupDate, { target: { value: '2099-03-16' } });
    fireEvent.change(returnDate, { target: { value: '2099-03-18' } });
    expect(screen.getByTestId('availability').textContent).toBe('Disponible à ces dates');
    expect(screen.getByTestId('book-button').getAttribute('href')).toBe(
      `/cars/book?car=${car.id}&start=2099-03-16T10%3A00&end=2099-03-18T10%3A00&pickup=loc-1`,
    );
  });

  it('books without dates when none were chosen', async () => {
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    expect((await screen.findByTestId('book-button')).getAttribute('href')).toBe(
      `/cars/book?car=${car.id}`,
    );
    expect(screen.getByTestId('availability').textContent).toBe('');
  });

  it('shows the cached reviews and refreshes them', async () => {
    await db.meta.put({
      key: reviewsKey(car.id),
      value: {
        fetched_at: '2026-11-22T10:00:00Z',
        reviews: [
          {
            id: 'r1',
            car_id: car.id,
            rating: 5,
            comment: 'Très propre, livrée à l’heure.',
            created_at: '2026-10-01T10:00:00Z',
            author_name: 'Karim B.',
          },
        ],
      },
    });
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    expect(await screen.findByText('Très propre, livrée à l’heure.')).toBeTruthy();
    expect(screen.getByText('Karim B.')).toBeTruthy();
    expect(screen.getByRole('img', { name: '5 sur 5' })).toBeTruthy();
    expect(catalogueSync.refreshReviews).toHaveBeenCalledWith(car.id);
  });

  it('tells when a car is unknown or retired', async () => {
    const view = renderRoute(path, '/cars/nope', <CarDetailsPage />);
    expect(await screen.findByRole('heading', { name: 'Voiture introuvable' })).toBeTruthy();
    view.unmount();
    await act(() => db.cars.put({ ...car, active: false }));
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    expect(
      await screen.findByRole('heading', { name: 'Cette voiture n’est plus proposée' }),
    ).toBeTruthy();
  });

  it('waits for the first sync before saying a car does not exist', async () => {
    await db.meta.delete(STATUS_KEY);
    await db.cars.clear();
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    await waitFor(() => expect(screen.getByText('Chargement…')).toBeTruthy());
    expect(screen.queryByText('Voiture introuvable')).toBeNull();
    // The sync lands: the page shows the car.
    await act(async () => {
      await db.cars.put(car);
      await db.meta.put({ key: STATUS_KEY, value: synced });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hyundai Tucson' })).toBeTruthy();
  });

  it('shows the photo index.html started where the gallery will be, until the car is stored', async () => {
    await db.meta.delete(STATUS_KEY);
    await db.cars.clear();
    // As index.html's script leaves it (src/sync/catalogue-prefetch.ts), drawn in its copy.
    const image = document.createElement('img');
    image.src = car.images[0]!;
    image.className = CAR_PHOTO_CLASS;
    const copy = document.createElement('div');
    copy.append(image);
    document.body.append(copy);
    const page = globalThis as { __kiraaCarPhoto?: { slug: string; image: HTMLImageElement } };
    page.__kiraaCarPhoto = { slug: 'another-car', image };
    renderRoute(path, '/cars/hyundai-tucson-2024?start=2099-04-01T10:00', <CarDetailsPage />);
    await waitFor(() => expect(screen.getByText('Chargement…')).toBeTruthy());
    // Another car's photo is not this page's.
    expect(screen.queryByTestId('car-photo-early')).toBeNull();
    cleanup();
    page.__kiraaCarPhoto = { slug: 'hyundai-tucson-2024', image };
    renderRoute(path, '/cars/hyundai-tucson-2024?start=2099-04-01T10:00', <CarDetailsPage />);
    const early = await screen.findByTestId('car-photo-early');
    // The very element, moved into the page (no second download, no blink).
    expect(early.firstElementChild).toBe(image);
    expect(copy.childElementCount).toBe(0);
    expect(screen.getByText('Chargement…')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Toutes les voitures' }).getAttribute('href')).toBe(
      '/cars?start=2099-04-01T10%3A00',
    );
    await act(async () => {
      await db.cars.put(car);
      await db.meta.put({ key: STATUS_KEY, value: synced });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hyundai Tucson' })).toBeTruthy();
    expect(screen.queryByTestId('car-photo-early')).toBeNull();
    // The gallery's own photo is the same box, and the early one is let go.
    const gallery = screen.getByRole('img', { name: 'Hyundai Tucson, photo 1 sur 2' });
    expect(gallery.className).toBe(CAR_PHOTO_CLASS);
    expect(page.__kiraaCarPhoto).toBeUndefined();
  });

  it('says the catalogue could not be loaded when the first sync failed', async () => {
    await db.cars.clear();
    await db.meta.put({
      key: STATUS_KEY,
      value: { state: 'error', last_success_at: null, last_error: 'Failed to fetch' },
    });
    renderRoute(path, '/cars/hyundai-tucson-2024', <CarDetailsPage />);
    expect(
      await screen.findByText('Erreur lors du chargement des voitures. Veuillez réessayer.'),
    ).toBeTruthy();
  });
});
