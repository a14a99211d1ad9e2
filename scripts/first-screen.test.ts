import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  APP_CODE_MARKER,
  chooserScript,
  FIRST_SCREENS,
  firstScreenHtml,
  otherDocuments,
  screenId,
  PICTURE_WAIT_MS,
  startAfterFirstPaint,
  starterScript,
  trimMarkup,
} from './first-screen.ts';
import { DRAW_FIRST_CARDS_GLOBAL } from './first-cards.ts';
import { ROUTE_PRELOAD_GLOBAL } from './route-preload.ts';
import { shellDocument } from '../src/infra/shell-document.ts';
import { CAR_PHOTO_GLOBAL, firstCardsRoute } from '../src/sync/catalogue-prefetch.ts';

const LOCALES = ['fr', 'en', 'ar'] as const;

/** A page's markup as the build writes it: #root's placeholder, then the templates. */
function loadPage(path: string, documentLocales: readonly string[] = LOCALES) {
  history.replaceState(null, '', path);
  const rendered = documentLocales.flatMap((locale) =>
    FIRST_SCREENS.map((screen) => ({
      id: screenId(screen.name, locale),
      html:
        `<header><a data-testid="sign-in-link" href="/sign-in">in</a></header>` +
        `<main><h1>${screen.name} ${locale}</h1></main>`,
    })),
  );
  document.body.innerHTML =
    `<div id="root"><div id="placeholder">Kiraa</div></div>` +
    firstScreenHtml(rendered, chooserScript(FIRST_SCREENS, LOCALES, 'fr'));
  // innerHTML does not run scripts: run them in document order, as the parser would.
  for (const script of document.querySelectorAll('script')) {
    new Function(script.textContent ?? '')();
  }
  return document.getElementById('root')!;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.innerHTML = '';
  delete (window as { __kiraaFirstScreen?: unknown }).__kiraaFirstScreen;
  history.replaceState(null, '', '/');
});

describe('the pages with first cards', () => {
  it("are the first screens with cards, for the prefetch's read of a device's cars too", () => {
    for (const path of [
      '/',
      '/home',
      '/home/',
      '/cars',
      '/cars/',
      '/cars/clio',
      '/cars/book',
      '/qa',
      '/homes',
    ]) {
      const screen = FIRST_SCREENS.some(
        (s) => s.name !== 'book' && new RegExp(s.pattern).test(path),
      );
      expect(firstCardsRoute().test(path), path).toBe(screen);
    }
  });
});

describe('the first screen in index.html', () => {
  it("shows the home page's copy in French by default, on /home and on /", () => {
    for (const path of ['/home', '/', '/home/']) {
      const root = loadPage(path);
      expect(root.querySelector('h1')?.textContent).toBe('home fr');
      expect(root.querySelector('#placeholder')).toBeNull();
    }
  });

  it('shows the car list in the stored language', () => {
    localStorage.setItem('locale', 'ar');
    expect(loadPage('/cars').querySelector('h1')?.textContent).toBe('cars ar');
    localStorage.setItem('locale', 'en');
    expect(loadPage('/cars?start=2026-12-01').querySelector('h1')?.textContent).toBe('cars en');
  });

  it('ignores a stored language it does not know', () => {
    localStorage.setItem('locale', 'de');
    expect(loadPage('/home').querySelector('h1')?.textContent).toBe('home fr');
  });

  it("shows the booking wizard's frame, but not when a refused booking is corrected", () => {
    expect(loadPage('/cars/book?car=ca000000').querySelector('h1')?.textContent).toBe('book fr');
    const editing = loadPage('/cars/book?car=ca000000&edit=GB-2K7');
    expect(editing.querySelector('#placeholder')).not.toBeNull();
    expect(editing.querySelector('h1')).toBeNull();
  });

  it('keeps the placeholder on the pages it does not write out', () => {
    for (const path of ['/cars/renault-clio', '/staff', '/homes', '/sign-in', '/cars/booking']) {
      const root = loadPage(path);
      expect(root.querySelector('#placeholder')).not.toBeNull();
      expect(root.querySelector('h1')).toBeNull();
    }
  });

  it('is inert: nothing to click or type into before the app handles it', () => {
    const copy = loadPage('/home').firstElementChild as HTMLElement;
    expect(copy.dataset.firstScreen).toBe('home-fr');
    expect(copy.hasAttribute('inert')).toBe(true);
    // No box of its own: the layout is the app's.
    expect(copy.style.display).toBe('contents');
  });

  it('asks for the first cards right after the copy is in, not before', () => {
    const calls: Array<string | null> = [];
    (window as { __kiraaDrawFirstCards?: () => void }).__kiraaDrawFirstCards = () =>
      calls.push(
        document.querySelector('[data-first-screen]')?.getAttribute('data-first-screen') ?? null,
      );
    loadPage('/cars');
    expect(calls).toEqual(['cars-fr']);
    delete (window as { __kiraaDrawFirstCards?: () => void }).__kiraaDrawFirstCards;
  });

  it('shows the "sign in" link to a device without a session only', () => {
    expect(loadPage('/home').querySelector('[data-testid="sign-in-link"]')).not.toBeNull();
    localStorage.setItem('kiraa-signed-in', '1');
    expect(loadPage('/home').querySelector('[data-testid="sign-in-link"]')).toBeNull();
  });

  it('falls back to French without a "sign in" link when storage is blocked', () => {
    vi.stubGlobal('localStorage', {
      getItem() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    const root = loadPage('/cars');
    expect(root.querySelector('h1')?.textContent).toBe('cars fr');
    expect(root.querySelector('[data-testid="sign-in-link"]')).toBeNull();
  });
});

describe("the service worker's documents", () => {
  it("keeps the placeholder when the document is not the stored language's (no worker yet)", () => {
    localStorage.setItem('locale', 'ar');
    const root = loadPage('/cars', ['fr']);
    expect(root.querySelector('#placeholder')).not.toBeNull();
    expect(root.querySelector('h1')).toBeNull();
    expect(loadPage('/cars', ['ar']).querySelector('h1')?.textContent).toBe('cars ar');
  });

  it("names the first-screen pages' document by language, one for the other pages", () => {
    expect(shellDocument('fr', '/home')).toBe('index.html');
    expect(shellDocument('ar', '/')).toBe('index.ar.html');
    expect(shellDocument('en', '/cars/')).toBe('index.en.html');
    expect(shellDocument('ar', '/cars/book')).toBe('index.ar.html');
    for (const unknown of ['de', '', null, undefined, 42]) {
      expect(shellDocument(unknown, '/cars')).toBe('index.html');
    }
    for (const path of ['/cars/renault-clio', '/cars/booking', '/qa', '/homes', '/staff']) {
      expect(shellDocument('ar', path)).toBe('index.shell.html');
    }
  });

  it("swaps index.html's first screen for each document's, and nothing else", () => {
    const own = '<template id="fr">Nos voitures $&</template>';
    const head = '<!doctype html><html><head><script>var fr = 1;</script></head><body>';
    const index = `${head}<div id="root"></div>${own}</body></html>`;
    expect(
      otherDocuments(index, own, { 'index.en.html': '<b>$1 en</b>', 'index.shell.html': '' }),
    ).toEqual([
      {
        fileName: 'index.en.html',
        source: `${head}<div id="root"></div><b>$1 en</b></body></html>`,
      },
      { fileName: 'index.shell.html', source: `${head}<div id="root"></div></body></html>` },
    ]);
  });

  it('fails the build when index.html lost its first screen', () => {
    expect(() =>
      otherDocuments('<html><body></body></html>', '<b>fr</b>', { 'index.shell.html': '' }),
    ).toThrow(/does not hold its first screen/);
  });
});

describe("the app's start", () => {
  // The scripts the starter adds (happy-dom would try to load them).
  let added: Array<string | null> = [];
  const scripts = () => added;
  beforeEach(() => {
    added = [];
    vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T) => {
      const script = node as unknown as HTMLScriptElement;
      if (script.type === 'module' && script.crossOrigin === '')
        added.push(script.getAttribute('src'));
      return node;
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    delete (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId;
  });

  it('keeps the head downloading the modules, and starts them from the end of the body', () => {
    const index =
      `<html><head><meta charset="UTF-8">${APP_CODE_MARKER}<script>prefetch()</script>` +
      '<script type="module" crossorigin src="/assets/runtime.js"></script>' +
      '<script type="module" crossorigin src="/assets/shell.js"></script></head>' +
      '<body><div id="root"></div></body></html>';
    const built = startAfterFirstPaint(index);
    expect(built).not.toContain('<script type="module"');
    // First in the head, ahead of the catalogue's prefetch: the document's first bytes name them.
    expect(built).toContain(
      '<head><meta charset="UTF-8">' +
        '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/runtime.js">\n    ' +
        '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/shell.js">' +
        '<script>prefetch()</script></head>',
    );
    expect(built).toMatch(
      /<div id="root"><\/div><script>\n\(function[\s\S]*shell\.js[\s\S]*<\/script>\n<\/body>/,
    );
    expect(() => startAfterFirstPaint('<html><body></body></html>')).toThrow(/no module script/);
    expect(() => startAfterFirstPaint(index.replace(APP_CODE_MARKER, ''))).toThrow(
      /kiraa:app-code/,
    );
  });

  it('lets the copy paint first: the app starts after the next frame', () => {
    vi.useFakeTimers();
    const frames: Array<() => void> = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
    new Function(starterScript(['/assets/runtime.js', '/assets/shell.js']))();
    vi.advanceTimersByTime(100);
    expect(scripts()).toEqual([]);
    frames.shift()!();
    expect(scripts()).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(scripts()).toEqual(['/assets/runtime.js', '/assets/shell.js']);
    vi.advanceTimersByTime(1000);
    expect(scripts()).toHaveLength(2);
  });

  it("adds a controlled page's route preloads first, once", () => {
    const preload = vi.fn(() => added.push('preloads'));
    vi.stubGlobal(ROUTE_PRELOAD_GLOBAL, preload);
    new Function(starterScript(['/assets/shell.js']))();
    expect(scripts()).toEqual(['preloads', '/assets/shell.js']);
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('gives up on a frame that does not come', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
    new Function(starterScript(['/assets/shell.js']))();
    vi.advanceTimersByTime(499);
    expect(scripts()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(scripts()).toEqual(['/assets/shell.js']);
  });

  describe('on a first visit to a page whose largest paint is a photo', () => {
    type Drawn = { __kiraaFirstCars?: Promise<unknown>; __kiraaFirstCards?: unknown };
    const drawn = window as unknown as Drawn & Record<string, unknown>;
    let frames: Array<() => void> = [];
    let rows: (value: unknown) => void = () => {};
    let picture: HTMLImageElement;
    beforeEach(() => {
      vi.useFakeTimers();
      frames = [];
      vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
      picture = loading();
      const pending = new Promise((resolve) => (rows = resolve));
      drawn.__kiraaFirstCars = pending;
      // As the drawing script (first-cards.ts) does: its callback on the rows comes first.
      drawn[DRAW_FIRST_CARDS_GLOBAL] = () => {};
      void pending.then(() => (drawn.__kiraaFirstCards = { list: 'cars', cards: [], picture }));
    });
    afterEach(() => {
      delete drawn.__kiraaFirstCars;
      delete drawn.__kiraaFirstCards;
      delete drawn[DRAW_FIRST_CARDS_GLOBAL];
      delete drawn[CAR_PHOTO_GLOBAL];
      history.replaceState(null, '', '/');
    });
    /** A photo still downloading (an image without a source counts as complete). */
    function loading(): HTMLImageElement {
      const image = document.createElement('img');
      Object.defineProperty(image, 'complete', { value: false, configurable: true });
      return image;
    }
    /** The starter, then the rows: the app's scripts come on the next frame. */
    async function startsOnTheFrameAfterTheRows() {
      new Function(starterScript(['/assets/shell.js']))();
      rows([]);
      await vi.advanceTimersByTimeAsync(0);
      frames.shift()!();
      vi.advanceTimersByTime(0);
      expect(scripts()).toEqual(['/assets/shell.js']);
    }
    /** Rows in, the photo drawn; the frame after its load, then the next task. */
    async function photoLoads(image: HTMLImageElement) {
      rows([]);
      await vi.advanceTimersByTimeAsync(0);
      expect(frames).toEqual([]);
      image.dispatchEvent(new Event('load'));
      expect(scripts()).toEqual([]);
      frames.shift()!();
      vi.advanceTimersByTime(0);
    }

    it("waits for the car list's first photo to load, then for the next frame", async () => {
      history.replaceState(null, '', '/cars');
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
      const preload = vi.fn(() => added.push('preloads'));
      vi.stubGlobal(ROUTE_PRELOAD_GLOBAL, preload);
      new Function(starterScript(['/assets/shell.js']))();
      vi.advanceTimersByTime(600);
      expect(scripts()).toEqual([]);
      await photoLoads(picture);
      expect(scripts()).toEqual(['preloads', '/assets/shell.js']);
    });

    it("waits for a car's page photo the head's script drew", async () => {
      history.replaceState(null, '', '/cars/renault-clio');
      const photo = loading();
      // No list on a car's page: the head's script draws the photo when the rows come.
      const pending = new Promise((resolve) => (rows = resolve));
      drawn.__kiraaFirstCars = pending;
      void pending.then(() => (drawn[CAR_PHOTO_GLOBAL] = { image: photo }));
      delete drawn[DRAW_FIRST_CARDS_GLOBAL];
      new Function(starterScript(['/assets/shell.js']))();
      expect(scripts()).toEqual([]);
      await photoLoads(photo);
      expect(scripts()).toEqual(['/assets/shell.js']);
    });

    it('does not wait under a service worker: a repeat visit, whose code is on the device', () => {
      history.replaceState(null, '', '/cars');
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
      vi.stubGlobal('navigator', { serviceWorker: { controller: {} } });
      new Function(starterScript(['/assets/shell.js']))();
      frames.shift()!();
      vi.advanceTimersByTime(0);
      expect(scripts()).toEqual(['/assets/shell.js']);
    });

    it(`starts after ${PICTURE_WAIT_MS} ms when the photo does not come`, () => {
      history.replaceState(null, '', '/cars');
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
      new Function(starterScript(['/assets/shell.js']))();
      vi.advanceTimersByTime(PICTURE_WAIT_MS - 1);
      expect(scripts()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(scripts()).toEqual(['/assets/shell.js']);
    });

    it("does not wait on the home page, whose cars are below the hero, nor without the rows' drawing", () => {
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'home-fr';
      new Function(starterScript(['/assets/shell.js']))();
      frames.shift()!();
      vi.advanceTimersByTime(0);
      expect(scripts()).toEqual(['/assets/shell.js']);
      added = [];
      // /cars with a query string: index.html draws no cards (filters are the app's).
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
      delete drawn[DRAW_FIRST_CARDS_GLOBAL];
      new Function(starterScript(['/assets/shell.js']))();
      frames.shift()!();
      vi.advanceTimersByTime(0);
      expect(scripts()).toEqual(['/assets/shell.js']);
    });

    it('starts after the next frame when the photo is already here, or the list has none', async () => {
      (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'cars-fr';
      Object.defineProperty(picture, 'complete', { value: true });
      await startsOnTheFrameAfterTheRows();
      // The first car without a photo: its card has no <img>.
      added = [];
      const pending = new Promise((resolve) => (rows = resolve));
      drawn.__kiraaFirstCars = pending;
      void pending.then(
        () => (drawn.__kiraaFirstCards = { list: 'cars', cards: [], picture: null }),
      );
      await startsOnTheFrameAfterTheRows();
    });
  });

  it('starts at once without a copy on screen, or on a hidden page', () => {
    new Function(starterScript(['/assets/shell.js']))();
    expect(scripts()).toEqual(['/assets/shell.js']);
    added = [];
    (window as { __kiraaFirstScreenId?: string }).__kiraaFirstScreenId = 'home-fr';
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    new Function(starterScript(['/assets/shell.js']))();
    expect(scripts()).toEqual(['/assets/shell.js']);
    hidden.mockRestore();
  });
});

describe('trimMarkup', () => {
  it('drops the document title and the closed navigation drawer, nothing else', () => {
    expect(
      trimMarkup(
        '<title>Kiraa · Nos voitures</title><header><button>Menu</button>' +
          '<dialog aria-modal="true"><nav><ul><li>x</li></ul></nav></dialog></header><main>m</main>',
      ),
    ).toBe('<header><button>Menu</button></header><main>m</main>');
  });
});
