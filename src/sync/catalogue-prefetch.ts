/**
 * A first visit to the catalogue (the traveller who opens a link to /cars at the airport, or the
 * home page and its best-rated cars) waits for the catalogue's download. index.html starts that download itself, with an inline script
 * written at build time (vite.config.ts), in parallel with the app's code instead of after it:
 * the first page of each catalogue table, the busy periods and the settings, exactly as the
 * sync requests them on a first visit (catalogue-requests.ts). The sync takes those answers
 * instead of asking again.
 *
 * Only while this device has never completed a catalogue sync (a flag in localStorage): after
 * that the sync asks for deltas, which the page cannot know before IndexedDB is read; the script
 * then reads the device's cars instead, for index.html's first cards (FIRST_CARS_GLOBAL), or on a
 * car's page that car's row, for its photo (CAR_PHOTO_GLOBAL).
 * Imported by vite.config.ts: relative imports, no browser globals at module level.
 */
import { REQUEST_TIMEOUT_MS } from '../infra/api-settings.ts';
import { CARS_TABLE, DEVICE_DB_NAME } from '../infra/db-name.ts';
import { FIRST_SCREEN_PAGES, pagesRoute } from '../infra/shell-document.ts';
import {
  apiKeyParam,
  BUSY_RPC,
  BUSY_STEP_MS,
  BUSY_WINDOW_MS,
  CATALOGUE_HEADERS,
  CATALOGUE_PAGE_SIZE,
  catalogueTables,
  catalogueUrl,
  changesPath,
  pageLimit,
  restBase,
  SETTINGS_PATH,
} from './catalogue-requests.ts';

/** Set in localStorage once a catalogue sync completed on this device. */
export const CATALOGUE_SYNCED_KEY = 'kiraa-catalogue-synced';

/**
 * The app's routes that show cars on their first screen: the home page (its best-rated cars; `/`
 * redirects there), /cars, a car and the booking wizard. There the catalogue's download starts
 * with the page, and its sync with the app (src/main.tsx).
 */
export const CATALOGUE_ROUTE = /^\/(home\/?)?$|^\/cars(\/|$)/;

/** Where the inline script leaves its answers (URL → response, or null when it failed). */
const GLOBAL_NAME = '__kiraaCatalogue';

/**
 * Where it leaves cars for index.html's first cards (scripts/first-cards.ts), as a promise of rows
 * (null when there are none): on a first visit the catalogue's first page, read from a copy of
 * the answer (the sync still reads the answer itself); on a repeat visit to /home or /cars, the
 * first cards the app showed last (FIRST_CARDS_SNAPSHOT_KEY, rows with a `texts` field, already in
 * the list's order), else the cars this device stored (IndexedDB, read directly: the app's code is
 * not here yet).
 */
export const FIRST_CARS_GLOBAL = '__kiraaFirstCars';

/**
 * localStorage: the first cards the app's lists showed last, in their order and with their
 * texts in each language (src/features/catalogue/first-cards-snapshot.ts). A repeat visit draws
 * them without reading IndexedDB, sorting or formatting (docs/performance.md).
 */
export const FIRST_CARDS_SNAPSHOT_KEY = 'kiraa-first-cards';

/**
 * The pages whose first screen index.html draws cars on (scripts/first-screen.ts). A function: the
 * script is written at build time, and the app's shell, which imports this module, need not carry
 * the table.
 */
export function firstCardsRoute(): RegExp {
  return pagesRoute(FIRST_SCREEN_PAGES.filter((page) => page.cards));
}

/** A car's page (`/cars/:slug`; `book` is the wizard): its first photo is its largest paint. */
export const CAR_PAGE_ROUTE = /^\/cars\/(?!book\/?$)([^/]+)\/?$/;

/**
 * Where the script leaves the car page's photo it started: `{ slug, image }`, the `<img>` the app's
 * page takes into its own while it loads (src/features/catalogue/car-page-loading.tsx).
 */
export const CAR_PHOTO_GLOBAL = '__kiraaCarPhoto';

/** The photo's classes: CarPicture's box for the gallery's photo (src/ui/car-picture.tsx). */
export const CAR_PHOTO_CLASS = 'object-cover aspect-[16/10] bg-muted w-full rounded-xl';

/**
 * Where a car page's photo sits before the app's code has run, under index.html's logo bar: the
 * page's column (src/app/layouts/top-bar-layout.tsx), the line of its "all cars" link, and the
 * gallery's place in its grid (src/features/catalogue/car-details-page.tsx), so the photo is
 * drawn where the page will show it. Static markup: the photo goes into `[data-photo-slot]`.
 */
export const CAR_PHOTO_FRAME =
  '<div data-first-car-photo aria-hidden="true" inert class="mx-auto w-full max-w-7xl px-4 pt-6 max-[20rem]:px-2 sm:px-6 md:px-8">' +
  '<div class="flex flex-col gap-8"><div class="text-sm">&nbsp;</div>' +
  '<div class="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">' +
  '<div data-photo-slot class="min-w-0"></div></div></div></div>';

/** index.html's placeholder in #root, which the app's first render replaces. */
export const ROOT_PLACEHOLDER_ATTRIBUTE = 'data-root-placeholder';

type Prefetched = Record<string, Promise<Response | null>>;

/** The URLs of the first visit's requests that do not depend on the time: tables, settings. */
export function prefetchUrls(apiUrl: string, anonKey: string): string[] {
  return [
    ...catalogueTables.map((table) =>
      changesPath(table, null, pageLimit(table, null, CATALOGUE_PAGE_SIZE)),
    ),
    SETTINGS_PATH,
  ].map((path) => catalogueUrl(apiUrl, anonKey, path));
}

/** JSON that is safe inside an HTML <script> element (also scripts/first-cards.ts). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The inline script's source (ES5, no dependencies; it must never throw). The busy periods'
 * URL depends on the hour: the script builds it as busyWindow and busyPath do (a unit test
 * checks they agree).
 */
export function prefetchScript(apiUrl: string, anonKey: string): string {
  return [
    '(function () {',
    '  try {',
    `    if (!${CATALOGUE_ROUTE.toString()}.test(location.pathname)) return;`,
    `    var carPage = ${CAR_PAGE_ROUTE.toString()}.exec(location.pathname);`,
    `    var cardsPage = ${firstCardsRoute().toString()}.test(location.pathname);`,
    `    if (localStorage.getItem(${scriptJson(CATALOGUE_SYNCED_KEY)})) {`,
    '      if (cardsPage) {',
    `        window[${scriptJson(FIRST_CARS_GLOBAL)}] = storedSnapshot() || storedCars(null);`,
    '      } else if (carPage) {',
    "        // A car's page on a repeat visit: its photo from the device's own row, drawn while the",
    "        // app's code starts (the same frame and handover as on a first visit).",
    '        storedCars(decodeURIComponent(carPage[1])).then(function (cars) {',
    '          startCarPhoto(cars, carPage[1]);',
    '        });',
    '      }',
    '      return;',
    '    }',
    `    var init = { headers: ${scriptJson(CATALOGUE_HEADERS)} };`,
    "    if (typeof AbortSignal.timeout === 'function') {",
    `      init.signal = AbortSignal.timeout(${REQUEST_TIMEOUT_MS});`,
    '    }',
    `    var from = Math.floor(Date.now() / ${BUSY_STEP_MS}) * ${BUSY_STEP_MS};`,
    '    var busy = new URLSearchParams({',
    '      from: new Date(from).toISOString(),',
    `      to: new Date(from + ${BUSY_WINDOW_MS}).toISOString(),`,
    '    });',
    `    var urls = ${scriptJson(prefetchUrls(apiUrl, anonKey))}.concat(`,
    `      ${scriptJson(`${restBase(apiUrl)}/${BUSY_RPC}?`)} + busy + ${scriptJson(`&${apiKeyParam(anonKey)}`)}`,
    '    );',
    `    var answers = (window[${scriptJson(GLOBAL_NAME)}] = {});`,
    '    var download = function () {',
    '      urls.forEach(function (url) {',
    '        answers[url] = fetch(url, init).catch(function () {',
    '          return null;',
    '        });',
    '      });',
    '    };',
    '    // A page that draws nothing from the catalogue before its code (the booking wizard) starts',
    '    // it once the document is parsed, as it did behind the stylesheet: the first seconds of the',
    '    // link go to the stylesheet and the code that page waits for (docs/performance.md).',
    "    if (!carPage && !cardsPage && document.readyState === 'loading') {",
    "      document.addEventListener('DOMContentLoaded', download);",
    '      return;',
    '    }',
    '    download();',
    `    window[${scriptJson(FIRST_CARS_GLOBAL)}] = answers[urls[0]]`,
    '      .then(function (response) {',
    '        return response && response.ok ? response.clone().json() : null;',
    '      })',
    '      .catch(function () {',
    '        return null;',
    '      });',
    "    // A car's page: its photo downloads as soon as the first page names it, not once the",
    '    // app has stored the catalogue and drawn the page, and shows where the page will show it',
    "    // while the app's code is on its way (docs/performance.md).",
    `    if (carPage) window[${scriptJson(FIRST_CARS_GLOBAL)}].then(function (cars) {`,
    '      startCarPhoto(cars, carPage[1]);',
    '    });',
    '  } catch (error) {',
    '    // Storage blocked or an old browser: the sync downloads the catalogue itself.',
    '  }',
    '  function startCarPhoto(cars, path) {',
    '    try {',
    '      var slug = decodeURIComponent(path);',
    '      var car = (cars || []).filter(function (row) {',
    "        // A retired car's page says so: no photo for it.",
    '        return row.slug === slug && row.active !== false;',
    '      })[0];',
    '      var src = car && car.images && car.images[0];',
    '      if (!src) return;',
    "      var image = document.createElement('img');",
    "      image.alt = '';",
    '      image.width = 640;',
    '      image.height = 400;',
    "      image.decoding = 'async';",
    "      image.fetchPriority = 'high';",
    '      // As CarPicture asks for it (src/ui/car-picture.tsx): the same request, one download.',
    "      if (/^https?:/.test(src)) image.crossOrigin = 'anonymous';",
    `      image.className = ${scriptJson(CAR_PHOTO_CLASS)};`,
    '      image.src = src;',
    `      window[${scriptJson(CAR_PHOTO_GLOBAL)}] = { slug: slug, image: image };`,
    '      // This script runs before the stylesheet: the row can come before #root is parsed.',
    "      if (!drawCarPhoto(image) && document.readyState === 'loading') {",
    "        document.addEventListener('DOMContentLoaded', function () {",
    '          drawCarPhoto(image);',
    '        });',
    '      }',
    '    } catch (error) {',
    '      // The page asks for the photo itself.',
    '    }',
    '  }',
    '  function drawCarPhoto(image) {',
    '    try {',
    "      // Drawn over index.html's placeholder only: once the app has rendered, its page takes it.",
    "      var root = document.getElementById('root');",
    `      if (!root || !root.querySelector('[${ROOT_PLACEHOLDER_ATTRIBUTE}]')) return false;`,
    "      var frame = document.createElement('div');",
    `      frame.innerHTML = ${scriptJson(CAR_PHOTO_FRAME)};`,
    "      frame.querySelector('[data-photo-slot]').appendChild(image);",
    '      root.appendChild(frame.firstChild);',
    '    } catch (error) {',
    '      // The page draws the photo itself.',
    '    }',
    '    return true;',
    '  }',
    '  function storedSnapshot() {',
    '    try {',
    `      var rows = JSON.parse(localStorage.getItem(${scriptJson(FIRST_CARDS_SNAPSHOT_KEY)}) || 'null');`,
    '      return rows && rows.length ? Promise.resolve(rows) : null;',
    '    } catch (error) {',
    '      return null;',
    '    }',
    '  }',
    "  // The device's cars, or those with `slug` (its index): null when there are none to read.",
    '  function storedCars(slug) {',
    '    return new Promise(function (resolve) {',
    '      var open;',
    '      try {',
    `        open = indexedDB.open(${scriptJson(DEVICE_DB_NAME)});`,
    '      } catch (error) {',
    '        resolve(null);',
    '        return;',
    '      }',
    '      // No database yet: create nothing (the app creates it with its tables).',
    '      open.onupgradeneeded = function () {',
    '        open.transaction.abort();',
    '      };',
    '      open.onerror = function () {',
    '        resolve(null);',
    '      };',
    '      open.onsuccess = function () {',
    '        var db = open.result;',
    '        // The app may need a new version of the database: never stand in its way.',
    '        db.onversionchange = function () {',
    '          db.close();',
    '        };',
    '        try {',
    `          var store = db.transaction(${scriptJson(CARS_TABLE)}).objectStore(${scriptJson(CARS_TABLE)});`,
    "          var read = slug === null ? store.getAll() : store.index('slug').getAll(slug);",
    '          read.onsuccess = function () {',
    '            db.close();',
    '            resolve(read.result);',
    '          };',
    '          read.onerror = function () {',
    '            db.close();',
    '            resolve(null);',
    '          };',
    '        } catch (error) {',
    '          db.close();',
    '          resolve(null);',
    '        }',
    '      };',
    '    });',
    '  }',
    '})();',
  ].join('\n');
}

/** The prefetched answer for `url`, handed out once; undefined when there is none. */
export function takePrefetched(url: string): Promise<Response | null> | undefined {
  const answers = (globalThis as { [GLOBAL_NAME]?: Prefetched })[GLOBAL_NAME];
  const answer = answers?.[url];
  if (answer) delete answers[url];
  return answer;
}

/** Called after each successful catalogue sync: no more prefetching on this device. */
export function markCatalogueSynced(): void {
  try {
    localStorage.setItem(CATALOGUE_SYNCED_KEY, '1');
  } catch {
    // Storage blocked: the script then prefetches on each visit to the catalogue, harmlessly.
  }
}
