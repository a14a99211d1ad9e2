/**
 * The first screen in the HTML (docs/performance.md, "The first screen in the HTML"): index.html
 * paints the home page, the car list and the booking wizard's frame, in the stored language,
 * before the app's code has run, and the app takes over without moving anything.
 */
import type { Page } from '@playwright/test';

import type { Locale } from '../../src/domain/locale.ts';
import { formatDzd } from '../../src/domain/money.ts';
import type { Car } from '../../src/domain/rows.ts';
import { sortCars } from '../../src/features/catalogue/filters.ts';
import { FIRST_CARD_LISTS } from '../../src/features/catalogue/first-cards.ts';
import { shellDocument } from '../../src/infra/shell-document.ts';
import { expect, test } from './support/fixtures.ts';
import { workerInControl } from './support/worker.ts';

/** The app's code: the module scripts index.html loads (and everything they import). */
const APP_CODE = /\/assets\/.*\.js$/;
/** The catalogue's cars, which index.html's prefetch asks for on a first visit. */
const CARS_REQUEST = /\/rest\/v1\/cars\?/;
/** A seed car to book (the wizard's page), and what shows the app took over each page. */
const WIZARD_CAR = 'ca000000-0000-4000-8000-000000000043';
/** A seed car on the catalogue's first page, with several photos. */
const PHOTO_CAR = 'renault-clio-5-2023';
const CAR_LINK = '[data-testid="car-link"]';
const WIZARD_INPUT = 'main form :is(input, select):not([disabled])';

/**
 * A device in `locale`: the language stored, and the document its service worker serves it
 * (src/sw.ts: index.html holds the default language's first screen only). These visits have no
 * worker (their code is held back), so the test serves that document in its place.
 */
async function storeLocale(page: Page, locale: string) {
  await page.addInitScript((value) => localStorage.setItem('locale', value), locale);
  await page.route('**/*', (route) => {
    if (!route.request().isNavigationRequest()) return route.fallback();
    const url = new URL(route.request().url());
    return route.continue({ url: new URL(`/${shellDocument(locale, url.pathname)}`, url).href });
  });
}

test.describe('before the app’s code runs', () => {
  test.beforeEach(async ({ page }) => {
    await page.route(APP_CODE, (route) => route.abort());
  });

  test('/home shows the shell, the hero and the cars’ skeleton in Arabic, right to left', async ({
    page,
  }) => {
    await storeLocale(page, 'ar');
    // No catalogue either (the first cards are below): the best-rated cars' grey cards.
    await page.route(CARS_REQUEST, (route) => route.abort());
    await page.goto('/home');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('lang', 'ar');
    await expect(html).toHaveAttribute('dir', 'rtl');
    const copy = page.locator('#root > [data-first-screen="home-ar"]');
    await expect(copy).toHaveAttribute('inert', '');
    await expect(page.locator('header')).toBeVisible();
    await expect(page.locator('h1')).toHaveText('استأجر سيارة في أي مكان في الجزائر');
    await expect(page.locator('form select[name="pickup"]')).toBeVisible();
    const skeleton = page.locator(
      'section[aria-labelledby="home-featured"] ul[aria-hidden="true"] > li',
    );
    await expect(skeleton).toHaveCount(3);
    await expect(skeleton.first()).toBeVisible();
    // Right to left: the menu button is on the right, the logo to its left.
    const menu = await page.getByTestId('menu-button').boundingBox();
    const logo = await page.locator('header a[href="/home"]').first().boundingBox();
    expect(menu!.x).toBeGreaterThan(logo!.x);
    // Inert: the search cannot be used before the code that handles it has arrived.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  });

  test('/ shows the home page, /cars the car list, in French by default', async ({ page }) => {
    // No catalogue either (the first cards are below): the list's grey cards.
    await page.route(CARS_REQUEST, (route) => route.abort());
    await page.goto('/');
    await expect(page.locator('h1')).toHaveText('Louez une voiture partout en Algérie');
    await page.goto('/cars');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.locator('#root > [data-first-screen="cars-fr"]')).toBeAttached();
    await expect(page.locator('h1')).toHaveText('Nos voitures');
    const skeleton = page.locator('main ul[aria-hidden="true"] > li');
    await expect(skeleton).toHaveCount(6);
    await expect(skeleton.first()).toBeVisible();
    await expect(page.getByTestId('car-link')).toHaveCount(0);
  });

  test('the booking wizard shows its heading in the stored language, except when correcting', async ({
    page,
  }) => {
    await storeLocale(page, 'en');
    await page.goto(`/cars/book?car=${WIZARD_CAR}`);
    await expect(page.locator('#root > [data-first-screen="book-en"]')).toHaveAttribute(
      'inert',
      '',
    );
    await expect(page.locator('h1')).toHaveText('Book a car');
    await expect(page.locator('main [role="status"]')).toBeVisible();
    // Correcting a refused booking has its own heading, which the copy does not have.
    await page.goto(`/cars/book?car=${WIZARD_CAR}&edit=GB-2K7Q9X`);
    await expect(page.locator('#root img[src="/icons/logo.svg"]')).toBeVisible();
    await expect(page.locator('#root [data-first-screen]')).toHaveCount(0);
    await expect(page.locator('h1')).toHaveCount(0);
  });

  test('other pages keep the logo bar', async ({ page }) => {
    await page.goto('/qa');
    await expect(page.locator('#root img[src="/icons/logo.svg"]')).toBeVisible();
    await expect(page.locator('#root [data-first-screen]')).toHaveCount(0);
    await expect(page.locator('h1')).toHaveCount(0);
  });
});

/**
 * Before any script of the page: the layout shifts' sum, and the moment the app replaced the
 * copy (its first render).
 */
const WATCH_TAKEOVER = `
  window.__shift = { sum: 0, shifts: [], sawCopy: false, takeover: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shift.sum += entry.value;
      window.__shift.shifts.push(entry.startTime);
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver(() => {
    const copy = document.querySelector('[data-first-screen]');
    if (copy) window.__shift.sawCopy = true;
    else if (window.__shift.sawCopy && window.__shift.takeover === null) {
      window.__shift.takeover = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
`;

type Watched = { sum: number; shifts: number[]; sawCopy: boolean; takeover: number | null };

for (const { locale, path, heading, shown } of [
  { locale: 'fr', path: '/home', heading: 'Louez une voiture partout en Algérie', shown: CAR_LINK },
  { locale: 'ar', path: '/home', heading: 'استأجر سيارة في أي مكان في الجزائر', shown: CAR_LINK },
  { locale: 'fr', path: '/cars', heading: 'Nos voitures', shown: CAR_LINK },
  { locale: 'ar', path: `/cars/book?car=${WIZARD_CAR}`, heading: 'حجز سيارة', shown: WIZARD_INPUT },
]) {
  test(`the app takes over ${path} (${locale}) without a layout shift`, async ({ page }) => {
    await storeLocale(page, locale);
    await page.addInitScript(WATCH_TAKEOVER);
    // The code comes late, as on a slow network: the copy paints first.
    await page.route(APP_CODE, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.goto(path);
    // The app's render: the copy is gone, the page is the app's (its cars, the wizard's step 1).
    await expect(page.locator('[data-first-screen]')).toHaveCount(0);
    await expect(page.locator(shown).first()).toBeVisible();
    const watched = await page.evaluate(() => (window as unknown as { __shift: Watched }).__shift);
    expect(watched.sawCopy).toBe(true);
    expect(watched.takeover).not.toBeNull();
    // The copy was painted before the app took over.
    const paint = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
    );
    expect(paint).toBeLessThan(watched.takeover!);
    expect(watched.sum).toBeLessThanOrEqual(0.01);
    // One page: no landmark or heading left over from the copy.
    await expect(page.locator('h1')).toHaveCount(1);
    await expect(page.locator('h1')).toHaveText(heading);
    await expect(page.locator('main')).toHaveCount(1);
    await expect(page.locator('[data-layout]')).toHaveCount(1);
    await expect(page.locator('[inert]')).toHaveCount(0);
  });
}

/**
 * Before any script of the page: whether grey cards were ever put on the page after the first
 * cards were drawn (the app's takeover must keep the cars on screen), and when cards appeared.
 */
const WATCH_CARDS = `
  window.__cards = { drawnAt: null, greyAfter: false };
  new MutationObserver(() => {
    if (window.__cards.drawnAt === null && document.querySelector('[data-first-card]')) {
      window.__cards.drawnAt = performance.now();
    }
    if (window.__cards.drawnAt !== null && document.querySelector('#root li.animate-pulse')) {
      window.__cards.greyAfter = true;
    }
  }).observe(document, { childList: true, subtree: true });
`;

/**
 * Watches the page (WATCH_TAKEOVER, WATCH_CARDS) and holds its code back until the returned
 * function is called, as on a network slower than the catalogue.
 */
async function holdAppCode(page: Page): Promise<() => void> {
  await page.addInitScript(WATCH_TAKEOVER + WATCH_CARDS);
  return hold(page, APP_CODE);
}

/** Holds every request matching `pattern` until the returned function is called. */
async function hold(page: Page, pattern: RegExp): Promise<() => void> {
  let release: () => void = () => {};
  const mayCome = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await mayCome;
    await route.continue();
  });
  return release;
}

/** The app took over with its own cards: no grey card came back, nothing moved. */
async function expectCardsKept(page: Page) {
  await expect(page.locator('[data-first-screen]')).toHaveCount(0);
  await expect(page.getByTestId('car-link').first()).toBeVisible();
  await expect(page.locator('[data-first-card]')).toHaveCount(0);
  const cards = await page.evaluate(
    () => (window as unknown as { __cards: { greyAfter: boolean } }).__cards,
  );
  expect(cards.greyAfter).toBe(false);
  const watched = await page.evaluate(() => (window as unknown as { __shift: Watched }).__shift);
  expect(watched.sum).toBeLessThanOrEqual(0.01);
}

for (const { locale, path, screen } of [
  { locale: 'fr', path: '/cars', screen: 'cars' },
  { locale: 'ar', path: '/home', screen: 'home' },
] as const) {
  test(`a first visit to ${path} (${locale}) shows the first cars before the app's code, and the app keeps them`, async ({
    page,
  }) => {
    await storeLocale(page, locale);
    // The code comes only when the test lets it, as on a network slower than the catalogue.
    const release = await holdAppCode(page);
    // Not "load": that waits for the code.
    await page.goto(path, { waitUntil: 'commit' });
    const drawn = page.locator('[data-first-screen] [data-first-card]');
    await expect(drawn.first()).toBeVisible();
    // The cars the app's list shows first, from the catalogue's first page, as the app shows them.
    const rows = (await page.evaluate('window.__kiraaFirstCars')) as Car[];
    const expected = sortCars(
      rows.filter((car) => car.active),
      'recommended',
    ).slice(0, FIRST_CARD_LISTS[screen]!.limit);
    expect(expected.length).toBeGreaterThan(1);
    await expect(drawn.locator('bdi')).toHaveText(expected.map((car) => car.name));
    await expect(drawn.locator('p.text-end > span:first-child')).toHaveText(
      expected.map((car) => formatDzd(car.daily_rate_dzd, locale as Locale)),
    );
    await expect(drawn.first().locator('a')).toHaveAttribute('href', `/cars/${expected[0]!.slug}`);
    // Still the copy: nothing in it can be used, and tests address only the app's cards.
    await expect(page.getByTestId('car-link')).toHaveCount(0);

    release();
    await expectCardsKept(page);
    await expect(page.locator('[inert]')).toHaveCount(0);
  });
}

for (const width of [390, 1280]) {
  test(`a first visit to a car's page (${width} px) shows its photo before the app's code, where the gallery shows it`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const release = await holdAppCode(page);
    await page.goto(`/cars/${PHOTO_CAR}`, { waitUntil: 'commit' });
    const early = page.locator('#root > [data-first-car-photo] img');
    await expect(early).toBeVisible();
    await expect(early).toHaveAttribute('src', `/cars/${PHOTO_CAR}-1.svg`);
    await expect(page.locator('#root [data-root-placeholder]')).toBeVisible();
    const before = await early.boundingBox();
    release();
    // The app's page: the gallery's own photo, where the early one was.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(
      page.locator('[data-first-car-photo], [data-testid="car-photo-early"]'),
    ).toHaveCount(0);
    const gallery = page.getByTestId('gallery-stage').locator('img');
    await expect(gallery).toHaveAttribute('src', `/cars/${PHOTO_CAR}-1.svg`);
    const after = await gallery.boundingBox();
    expect(Math.abs(after!.y - before!.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(after!.x - before!.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(after!.width - before!.width)).toBeLessThanOrEqual(1);
    const watched = await page.evaluate(() => (window as unknown as { __shift: Watched }).__shift);
    expect(watched.sum).toBeLessThanOrEqual(0.01);
    await expect(page.locator('[inert]')).toHaveCount(0);
  });
}

/**
 * Before any script of the page: when the app's first module script was added (the starter,
 * scripts/first-screen.ts) and when the page's largest photo loaded.
 */
const WATCH_START = `
  window.__start = { code: null, photo: null };
  new MutationObserver(() => {
    if (window.__start.code === null && document.querySelector('script[type="module"]')) {
      window.__start.code = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('load', (event) => {
    const img = event.target;
    const drawn = window.__kiraaFirstCards?.picture ?? window.__kiraaCarPhoto?.image;
    if (window.__start.photo === null && img === drawn) window.__start.photo = performance.now();
  }, true);
`;

test.describe("a first visit's order", () => {
  test('/cars asks for the catalogue without waiting for the stylesheet', async ({ page }) => {
    const releaseStyles = await hold(page, /\/assets\/.*\.css$/);
    const cars = page.waitForRequest(CARS_REQUEST);
    await page.goto('/cars', { waitUntil: 'commit' });
    // The stylesheet is still held: the head's prefetch comes before it (vite.config.ts).
    await cars;
    releaseStyles();
    await expect(page.getByTestId('car-link').first()).toBeVisible();
  });

  test('the booking wizard asks for it after the stylesheet, which comes first there', async ({
    page,
  }) => {
    const releaseStyles = await hold(page, /\/assets\/.*\.css$/);
    let asked = false;
    page.on('request', (request) => {
      if (CARS_REQUEST.test(request.url())) asked = true;
    });
    await page.goto(`/cars/book?car=${WIZARD_CAR}`, { waitUntil: 'commit' });
    await page.waitForTimeout(500);
    expect(asked).toBe(false);
    releaseStyles();
    await expect(page.locator(WIZARD_INPUT).first()).toBeVisible();
    expect(asked).toBe(true);
  });

  for (const { path, photo, shown } of [
    { path: '/cars', photo: /\/cars\/[^/]+\.svg$/, shown: CAR_LINK },
    {
      path: `/cars/${PHOTO_CAR}`,
      photo: new RegExp(`/cars/${PHOTO_CAR}-1\\.svg$`),
      shown: '[data-testid="gallery-stage"]',
    },
  ]) {
    test(`${path}: the app's code starts once the first photo has loaded`, async ({ page }) => {
      await page.addInitScript(WATCH_START);
      // The photo comes 400 ms late (the starter gives up after 1.5 s).
      await page.route(photo, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'commit' });
      // The app's page (its cards, its gallery), not index.html's copy of it.
      await expect(page.locator(shown).first()).toBeVisible();
      const start = await page.evaluate(
        () => (window as unknown as { __start: { code: number; photo: number } }).__start,
      );
      expect(start.photo).not.toBeNull();
      expect(start.code).toBeGreaterThan(start.photo);
    });
  }
});

test.describe('a repeat visit', () => {
  // The code must come through the test's route, not from the service worker's cache.
  test.use({ serviceWorkers: 'block' });

  test("/cars shows this device's cars before the app's code: the app's own first cards", async ({
    page,
  }) => {
    await page.goto('/cars');
    await expect(page.getByTestId('last-updated')).toBeVisible({ timeout: 30_000 });
    const list = page.getByTestId('car-list');
    await expect(list.getByTestId('car-link')).toHaveCount(FIRST_CARD_LISTS.cars!.limit);
    const names = await list.locator('bdi').allTextContents();

    const release = await holdAppCode(page);
    await page.reload({ waitUntil: 'commit' });
    const drawn = page.locator('[data-first-screen] [data-first-card]');
    await expect(drawn.locator('bdi')).toHaveText(names);

    release();
    await expectCardsKept(page);
    await expect(page.getByTestId('car-list').locator('bdi')).toHaveText(names);
  });

  test("a car's page shows its photo from this device's catalogue before the app's code", async ({
    page,
  }) => {
    await page.goto('/cars');
    await expect(page.getByTestId('last-updated')).toBeVisible({ timeout: 30_000 });
    const release = await holdAppCode(page);
    // No catalogue request before it: the device's own row names the photo.
    let asked = false;
    await page.route(CARS_REQUEST, (route) => {
      asked = true;
      return route.fallback();
    });
    await page.goto(`/cars/${PHOTO_CAR}`, { waitUntil: 'commit' });
    const early = page.locator('#root > [data-first-car-photo] img');
    await expect(early).toBeVisible();
    await expect(early).toHaveAttribute('src', `/cars/${PHOTO_CAR}-1.svg`);
    const before = await early.boundingBox();
    // (The app's sync asks for the catalogue's changes once it runs, not before.)
    expect(asked).toBe(false);
    release();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const after = await page.getByTestId('gallery-stage').locator('img').boundingBox();
    expect(Math.abs(after!.y - before!.y)).toBeLessThanOrEqual(1);
    const watched = await page.evaluate(() => (window as unknown as { __shift: Watched }).__shift);
    expect(watched.sum).toBeLessThanOrEqual(0.01);
  });
});

test.describe("the service worker's documents", () => {
  test("the worker serves the device's language's document, and one without copies elsewhere", async ({
    page,
    request,
  }) => {
    // A first visit has no stored language: index.html holds the default language's copies.
    const index = await (await request.get('/index.html')).text();
    expect(index).toContain('id="kiraa-first-cars-fr"');
    expect(index).not.toContain('id="kiraa-first-cars-ar"');
    expect(index).not.toContain('id="kiraa-cards-ar"');

    await page.goto('/qa');
    await workerInControl(page);
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitemradio', { name: 'العربية' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await page.addInitScript(`
      window.__copies = [];
      new MutationObserver(() => {
        const copy = document.querySelector('[data-first-screen]');
        const id = copy && copy.getAttribute('data-first-screen');
        if (id && window.__copies.indexOf(id) < 0) window.__copies.push(id);
      }).observe(document, { childList: true, subtree: true });
    `);
    // The device's language reaches the worker's storage a moment after the switch.
    await expect
      .poll(
        async () => {
          await page.goto('/cars');
          return page.evaluate(() =>
            [...document.querySelectorAll('template[id^="kiraa-"]')].map((t) => t.id),
          );
        },
        { timeout: 30_000 },
      )
      .toEqual([
        'kiraa-cards-ar',
        'kiraa-first-home-ar',
        'kiraa-first-cars-ar',
        'kiraa-first-book-ar',
      ]);
    // That document's copy painted the Arabic car list before the app took over.
    expect(
      await page.evaluate(() => (window as unknown as { __copies: string[] }).__copies),
    ).toEqual(['cars-ar']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('سياراتنا');
    // A page without a first screen in the HTML gets a document without any copy.
    await page.goto('/qa');
    expect(await page.locator('template[id^="kiraa-"]').count()).toBe(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
