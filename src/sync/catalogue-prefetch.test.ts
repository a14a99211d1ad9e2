import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Car } from '@/domain/rows';
import { db } from '@/infra/db';

import {
  CAR_PHOTO_CLASS,
  CATALOGUE_SYNCED_KEY,
  FIRST_CARDS_SNAPSHOT_KEY,
  markCatalogueSynced,
  prefetchScript,
  prefetchUrls,
  takePrefetched,
} from '@/sync/catalogue-prefetch';
import {
  busyPath,
  busyWindow,
  CATALOGUE_FIRST_PAGE_SIZE,
  CATALOGUE_PAGE_SIZE,
  pageLimit,
  catalogueTables,
  catalogueUrl,
  changesPath,
  SETTINGS_PATH,
} from '@/sync/catalogue-requests';
import { postgrestCatalogueSource } from '@/sync/catalogue-source';

const API = 'https://api.example.test';
const KEY = 'anon-key';
/** A first visit's first request of cars (first page first). */
const FIRST_CARS = CATALOGUE_FIRST_PAGE_SIZE.cars!;
const CARS_URL = `${API}/rest/v1/${changesPath('cars', null, FIRST_CARS)}&apikey=${KEY}`;
/** 10:37 in Algiers: the busy window starts at 09:00 UTC. */
const NOW = new Date('2027-03-14T09:37:12.345Z');
const BUSY_URL = catalogueUrl(API, KEY, busyPath(busyWindow(NOW)));
const PREFETCHED_ROWS = [{ id: 'a', updated_at: '2026-01-01T00:00:00Z' }];
const FETCHED_ROWS = [{ id: 'b', updated_at: '2026-01-02T00:00:00Z' }];

type Answers = Record<string, Promise<Response | null>>;
const page = globalThis as unknown as {
  __kiraaCatalogue?: Answers;
  __kiraaFirstCars?: Promise<unknown>;
  __kiraaCarPhoto?: { slug: string; image: HTMLImageElement };
};

/** Runs index.html's script at `url` with `fetch` stubbed; returns the stub. */
function runScript(
  url: string,
  respond: (url: string) => Promise<Response> = () => Promise.resolve(new Response('[]')),
  apiUrl = API,
) {
  const pageFetch = vi.fn((input: string, _init?: RequestInit) => respond(input));
  vi.stubGlobal('fetch', pageFetch);
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  history.replaceState(null, '', url);
  new Function(prefetchScript(apiUrl, KEY))();
  return pageFetch;
}

afterEach(() => {
  vi.useRealTimers();
  delete page.__kiraaCatalogue;
  delete page.__kiraaFirstCars;
  delete page.__kiraaCarPhoto;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  history.replaceState(null, '', '/');
  document.body.innerHTML = '';
});

describe('prefetchUrls', () => {
  it("are the sync's first request of each catalogue table, and the settings", () => {
    expect(prefetchUrls(API, KEY)).toEqual([
      ...catalogueTables.map(
        (table) =>
          `${API}/rest/v1/${changesPath(table, null, pageLimit(table, null, CATALOGUE_PAGE_SIZE))}&apikey=${KEY}`,
      ),
      `${API}/rest/v1/${SETTINGS_PATH}&apikey=${KEY}`,
    ]);
    expect(prefetchUrls(API, KEY)).toHaveLength(5);
  });
});

describe('prefetchScript', () => {
  it('requests the first page of each table, the settings and the busy periods on a first visit to the catalogue', () => {
    const pageFetch = runScript('/cars');
    expect(pageFetch.mock.calls.map(([url]) => url)).toEqual([...prefetchUrls(API, KEY), BUSY_URL]);
    // Simple requests: no header a CORS preflight would have to allow.
    for (const [, init] of pageFetch.mock.calls) {
      expect(init?.headers).toEqual({ accept: 'application/json' });
    }
    expect(Object.keys(page.__kiraaCatalogue ?? {})).toEqual([...prefetchUrls(API, KEY), BUSY_URL]);
  });

  it('asks for the busy periods of the same window as the sync, from the start of the hour', () => {
    runScript('/cars');
    expect(BUSY_URL).toBe(
      `${API}/rest/v1/rpc/car_busy_periods?from=2027-03-14T09%3A00%3A00.000Z&to=2028-03-14T09%3A00%3A00.000Z&apikey=${KEY}`,
    );
    expect(takePrefetched(BUSY_URL)).toBeInstanceOf(Promise);
  });

  it("also prefetches on a car's page at once, and on the booking wizard once the document is parsed", () => {
    expect(runScript('/cars/renault-clio')).toHaveBeenCalledTimes(6);
    delete page.__kiraaCatalogue;
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const wizardFetch = runScript('/cars/book');
    // Behind the stylesheet and the code the wizard waits for, as when the script came after them.
    expect(wizardFetch).not.toHaveBeenCalled();
    readyState.mockRestore();
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(wizardFetch.mock.calls.map(([url]) => url)).toEqual([
      ...prefetchUrls(API, KEY),
      BUSY_URL,
    ]);
    expect(takePrefetched(BUSY_URL)).toBeInstanceOf(Promise);
  });

  it('also prefetches on the home page (its best-rated cars) and on the root', () => {
    expect(runScript('/home')).toHaveBeenCalledTimes(6);
    delete page.__kiraaCatalogue;
    expect(runScript('/')).toHaveBeenCalledTimes(6);
  });

  it('requests nothing elsewhere', () => {
    expect(runScript('/homes')).not.toHaveBeenCalled();
    expect(runScript('/qa')).not.toHaveBeenCalled();
    expect(runScript('/carsharing')).not.toHaveBeenCalled();
    expect(page.__kiraaCatalogue).toBeUndefined();
  });

  it('requests nothing once a catalogue sync completed on this device', () => {
    localStorage.setItem('kiraa-catalogue-synced', '1');
    expect(runScript('/cars')).not.toHaveBeenCalled();
    expect(page.__kiraaCatalogue).toBeUndefined();
  });

  it("reads this device's cars for index.html's first cards on a repeat visit to /cars or /home", async () => {
    const cars = [
      { id: 'a', slug: 'clio', name: 'Clio', active: true },
      { id: 'b', slug: 'tucson', name: 'Tucson', active: false },
    ] as unknown as Car[];
    await db.cars.bulkPut(cars);
    markCatalogueSynced();
    for (const path of ['/cars', '/home', '/']) {
      expect(runScript(path)).not.toHaveBeenCalled();
      await expect(page.__kiraaFirstCars).resolves.toEqual(cars);
      delete page.__kiraaFirstCars;
    }
    // Not on a car's page or the wizard: index.html draws no cards there.
    runScript('/cars/renault-clio');
    expect(page.__kiraaFirstCars).toBeUndefined();
    // The app's database still opens and writes after the page's read.
    await db.cars.put({ id: 'c', slug: 'logan', name: 'Logan', active: true } as unknown as Car);
    expect(await db.cars.count()).toBe(3);
    await db.cars.clear();
  });

  it("takes the app's saved first cards on a repeat visit, without IndexedDB, else the device's cars", async () => {
    const saved = [{ id: 'a', slug: 'clio', name: 'Clio', active: true, texts: {} }];
    const stored = [{ id: 'b', slug: 'logan', name: 'Logan', active: true }] as unknown as Car[];
    await db.cars.bulkPut(stored);
    markCatalogueSynced();
    localStorage.setItem(FIRST_CARDS_SNAPSHOT_KEY, JSON.stringify(saved));
    const open = vi.spyOn(indexedDB, 'open');
    runScript('/cars');
    await expect(page.__kiraaFirstCars).resolves.toEqual(saved);
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
    // Empty or unreadable: the device's cars, as before the app saved any.
    for (const value of ['[]', '{not json', 'null']) {
      localStorage.setItem(FIRST_CARDS_SNAPSHOT_KEY, value);
      delete page.__kiraaFirstCars;
      runScript('/cars');
      await expect(page.__kiraaFirstCars).resolves.toEqual(stored);
    }
    await db.cars.clear();
  });

  it("draws a car page's photo from the device's own row on a repeat visit", async () => {
    await db.cars.bulkPut([
      { id: 'a', slug: 'clio', name: 'Clio', active: true, images: ['/cars/clio-1.svg'] },
      { id: 'b', slug: 'logan', name: 'Logan', active: true, images: ['/cars/logan-1.svg'] },
    ] as unknown as Car[]);
    markCatalogueSynced();
    const visit = async (path: string) => {
      document.body.innerHTML = '<div id="root"><div data-root-placeholder>Kiraa</div></div>';
      delete page.__kiraaCarPhoto;
      const pageFetch = runScript(path);
      await vi
        .waitFor(() => expect(page.__kiraaCarPhoto ?? null).not.toBeNull(), { timeout: 500 })
        .catch(() => undefined);
      expect(pageFetch).not.toHaveBeenCalled();
      return document.querySelector('[data-first-car-photo] img');
    };
    expect((await visit('/cars/logan'))?.getAttribute('src')).toBe('/cars/logan-1.svg');
    expect(page.__kiraaCarPhoto?.slug).toBe('logan');
    // A car the device does not have, and the list (its first cards, not a photo).
    expect(await visit('/cars/autre')).toBeNull();
    expect(await visit('/cars')).toBeNull();
    await db.cars.clear();
  });

  it('creates no database on a device that has none', async () => {
    db.close();
    await Dexie.delete('kiraa');
    markCatalogueSynced();
    runScript('/cars');
    await expect(page.__kiraaFirstCars).resolves.toBeNull();
    expect(await Dexie.exists('kiraa')).toBe(false);
    await db.open();
  });

  it('does not throw when storage is blocked', () => {
    vi.stubGlobal('localStorage', {
      getItem() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    expect(runScript('/cars')).not.toHaveBeenCalled();
  });

  it('joins an API URL with a trailing slash without a double slash', () => {
    const pageFetch = runScript('/cars', undefined, `${API}/`);
    const urls = pageFetch.mock.calls.map(([url]) => url);
    expect(urls).toEqual([...prefetchUrls(API, KEY), BUSY_URL]);
    for (const url of urls) expect(url.replace('https://', '')).not.toContain('//');
  });

  it("leaves the first page of cars as rows for index.html's first cards, and the answer for the sync", async () => {
    const rows = [{ id: 'a', name: 'Clio' }];
    runScript('/cars', (url) =>
      Promise.resolve(new Response(JSON.stringify(url === CARS_URL ? rows : []))),
    );
    await expect(page.__kiraaFirstCars).resolves.toEqual(rows);
    // The sync still reads the answer itself (the rows came from a copy).
    const answer = await takePrefetched(CARS_URL);
    await expect(answer?.json()).resolves.toEqual(rows);
  });

  it('leaves no rows when the first page of cars failed or was refused', async () => {
    runScript('/cars', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(page.__kiraaFirstCars).resolves.toBeNull();
    delete page.__kiraaCatalogue;
    runScript('/cars', () => Promise.resolve(new Response('{"code":"PGRST"}', { status: 503 })));
    await expect(page.__kiraaFirstCars).resolves.toBeNull();
  });

  it("starts a car page's first photo, at high priority, as soon as the first page names the car", async () => {
    const rows = [
      { id: 'a', slug: 'clio-5', images: ['/cars/clio-5-1.svg', '/cars/clio-5-2.svg'] },
      { id: 'b', slug: 'jumpy', images: ['https://cdn.example.test/jumpy.webp'] },
      { id: 'c', slug: 'sans-photo', images: [] },
      { id: 'd', slug: 'retiree', images: ['/cars/retiree-1.svg'], active: false },
    ];
    const photoAt = async (url: string) => {
      runScript(url, (request) =>
        Promise.resolve(new Response(JSON.stringify(request === CARS_URL ? rows : []))),
      );
      await page.__kiraaFirstCars;
      await new Promise((resolve) => setTimeout(resolve, 0));
      const photo = page.__kiraaCarPhoto;
      delete page.__kiraaCarPhoto;
      delete page.__kiraaCatalogue;
      return photo?.image;
    };
    const clio = await photoAt('/cars/clio-5');
    expect(clio?.getAttribute('src')).toBe('/cars/clio-5-1.svg');
    expect(clio?.fetchPriority).toBe('high');
    expect(clio?.crossOrigin).toBeNull();
    // The gallery's photo box (CarPicture), decorative until the page names it.
    expect(clio?.className).toBe(CAR_PHOTO_CLASS);
    expect([clio?.width, clio?.height, clio?.alt]).toEqual([640, 400, '']);
    // A picture from another origin is asked for as CarPicture asks for it (CORS).
    const jumpy = await photoAt('/cars/jumpy/');
    expect(jumpy?.getAttribute('src')).toBe('https://cdn.example.test/jumpy.webp');
    expect(jumpy?.crossOrigin).toBe('anonymous');
    // No photo, a retired car, one the first page does not have, the list, the wizard, a broken
    // address.
    for (const url of [
      '/cars/sans-photo',
      '/cars/retiree',
      '/cars/autre',
      '/cars',
      '/cars/book',
      '/cars/%E0%A4',
    ]) {
      expect(await photoAt(url), url).toBeUndefined();
    }
  });

  it("draws the photo under index.html's placeholder, not once the app has rendered", async () => {
    const rows = [{ id: 'a', slug: 'clio-5', images: ['/cars/clio-5-1.svg'] }];
    const visit = async (rootHtml: string) => {
      document.body.innerHTML = `<div id="root">${rootHtml}</div>`;
      runScript('/cars/clio-5', (request) =>
        Promise.resolve(new Response(JSON.stringify(request === CARS_URL ? rows : []))),
      );
      await page.__kiraaFirstCars;
      await new Promise((resolve) => setTimeout(resolve, 0));
      return document.getElementById('root')!;
    };
    const early = await visit('<div data-root-placeholder>Kiraa</div>');
    const frame = early.querySelector('[data-first-car-photo]');
    expect(frame?.hasAttribute('inert')).toBe(true);
    expect(frame?.getAttribute('aria-hidden')).toBe('true');
    expect(frame?.querySelector('[data-photo-slot] > img')).toBe(page.__kiraaCarPhoto?.image);
    // The placeholder (the logo bar) stays above it.
    expect(early.firstElementChild?.hasAttribute('data-root-placeholder')).toBe(true);
    delete page.__kiraaCarPhoto;
    delete page.__kiraaCatalogue;
    const late = await visit('<main>the app</main>');
    expect(late.querySelector('[data-first-car-photo]')).toBeNull();
    // Still started, for the app's page to take (read anew: the script set it again).
    const started = () => page.__kiraaCarPhoto;
    expect(started()?.slug).toBe('clio-5');
  });

  it('draws the photo once #root is parsed when the row comes before it', async () => {
    const rows = [{ id: 'a', slug: 'clio-5', images: ['/cars/clio-5-1.svg'] }];
    // The script runs in the head, before the stylesheet: the body may not be parsed yet.
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    runScript('/cars/clio-5', (request) =>
      Promise.resolve(new Response(JSON.stringify(request === CARS_URL ? rows : []))),
    );
    await page.__kiraaFirstCars;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.__kiraaCarPhoto?.slug).toBe('clio-5');
    document.body.innerHTML = '<div id="root"><div data-root-placeholder>Kiraa</div></div>';
    readyState.mockRestore();
    document.dispatchEvent(new Event('DOMContentLoaded'));
    const drawn = document.querySelector('#root [data-first-car-photo] [data-photo-slot] > img');
    expect(drawn).toBe(page.__kiraaCarPhoto?.image);
  });

  it('leaves null for a request that failed', async () => {
    runScript('/cars', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(takePrefetched(CARS_URL)).resolves.toBeNull();
  });
});

describe('takePrefetched', () => {
  it('hands out each answer once', async () => {
    runScript('/cars');
    const stored = page.__kiraaCatalogue?.[CARS_URL];
    const answer = takePrefetched(CARS_URL);
    expect(answer).toBeInstanceOf(Promise);
    expect(answer).toBe(stored);
    await expect(answer).resolves.toBeInstanceOf(Response);
    expect(takePrefetched(CARS_URL)).toBeUndefined();
    // The other tables' answers are still there.
    expect(takePrefetched(prefetchUrls(API, KEY)[1]!)).toBeInstanceOf(Promise);
  });

  it('has nothing when the script did not run or for another URL', () => {
    expect(takePrefetched(CARS_URL)).toBeUndefined();
    runScript('/cars');
    expect(takePrefetched(`${CARS_URL}&x=1`)).toBeUndefined();
  });
});

describe('postgrestCatalogueSource with prefetched answers', () => {
  const json = (rows: unknown) => Promise.resolve(new Response(JSON.stringify(rows)));

  function source() {
    const send = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => json(FETCHED_ROWS));
    return {
      send,
      source: postgrestCatalogueSource({
        url: API,
        anonKey: KEY,
        fetch: send as typeof fetch,
        prefetched: takePrefetched,
      }),
    };
  }

  it("takes the page's answer instead of asking again, once", async () => {
    runScript('/cars', (url) => (url === CARS_URL ? json(PREFETCHED_ROWS) : json([])));
    const { send, source: catalogue } = source();

    await expect(catalogue.changes('cars', null, FIRST_CARS)).resolves.toEqual(PREFETCHED_ROWS);
    expect(send).not.toHaveBeenCalled();

    await expect(catalogue.changes('cars', null, FIRST_CARS)).resolves.toEqual(FETCHED_ROWS);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toBe(CARS_URL);
  });

  it("takes the page's busy periods and settings when the sync asks for the same window", async () => {
    const busyRows = [
      { car_id: 'c1', start_at: '2027-03-20T09:00:00.000Z', end_at: '2027-03-22T09:00:00.000Z' },
    ];
    const settingsRow = { driver_per_day_dzd: 2500, min_age: 21, currency: 'DZD' };
    runScript('/cars', (url) =>
      url === BUSY_URL
        ? json(busyRows)
        : url.includes('/settings?')
          ? json([settingsRow])
          : json([]),
    );
    const { send, source: catalogue } = source();
    const window = busyWindow(NOW);

    await expect(catalogue.busyPeriods(window.from, window.to)).resolves.toEqual(busyRows);
    await expect(catalogue.settings()).resolves.toEqual(settingsRow);
    expect(send).not.toHaveBeenCalled();
  });

  it('asks itself for a delta', async () => {
    runScript('/cars', (url) => (url === CARS_URL ? json(PREFETCHED_ROWS) : json([])));
    const { send, source: catalogue } = source();

    await expect(
      catalogue.changes('cars', { updated_at: 'x', key: 'y' }, CATALOGUE_PAGE_SIZE),
    ).resolves.toEqual(FETCHED_ROWS);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).not.toBe(CARS_URL);
    // The first page's answer is still waiting for the request it matches.
    expect(takePrefetched(CARS_URL)).toBeInstanceOf(Promise);
  });

  it('asks again when the early request failed', async () => {
    runScript('/cars', () => Promise.reject(new TypeError('Failed to fetch')));
    const { send, source: catalogue } = source();

    await expect(catalogue.changes('cars', null, FIRST_CARS)).resolves.toEqual(FETCHED_ROWS);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toBe(CARS_URL);
  });

  it('asks again when the server refused the early request', async () => {
    runScript('/cars', () =>
      Promise.resolve(new Response(JSON.stringify({ message: 'busy' }), { status: 503 })),
    );
    const { send, source: catalogue } = source();

    await expect(catalogue.changes('cars', null, FIRST_CARS)).resolves.toEqual(FETCHED_ROWS);
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('markCatalogueSynced', () => {
  it('sets the flag that stops the prefetch', () => {
    markCatalogueSynced();
    expect(CATALOGUE_SYNCED_KEY).toBe('kiraa-catalogue-synced');
    expect(localStorage.getItem('kiraa-catalogue-synced')).toBe('1');
    expect(runScript('/cars')).not.toHaveBeenCalled();
  });

  it('does not throw when storage is blocked', () => {
    vi.stubGlobal('localStorage', {
      setItem() {
        throw new DOMException('blocked', 'QuotaExceededError');
      },
    });
    expect(() => markCatalogueSynced()).not.toThrow();
  });
});
