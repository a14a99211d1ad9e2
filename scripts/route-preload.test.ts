import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { OutputAsset, OutputBundle, OutputChunk } from 'rolldown';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  firstScreenFiles,
  parseLazyRoutes,
  pathPattern,
  preloadScript,
  ROUTE_PRELOAD_GLOBAL,
  preloadTable,
  type LazyRoute,
  type PreloadTable,
} from './route-preload';
import { FIRST_CARS_GLOBAL } from '../src/sync/catalogue-prefetch';

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A source file without its comments (string literals kept as they are). */
function withoutComments(source: string): string {
  return source.replace(
    /('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (match, literal: string | undefined) => literal ?? '',
  );
}

describe('parseLazyRoutes', () => {
  const source = readFileSync(resolve(projectDir, 'src/app/routes.tsx'), 'utf8');
  const routes = parseLazyRoutes(source);

  it('finds every lazy route of src/app/routes.tsx', () => {
    const declared = withoutComments(source).match(/\blazy\s*:\s*page\s*\(/g) ?? [];
    expect(declared.length).toBeGreaterThanOrEqual(8);
    expect(routes).toHaveLength(declared.length);
  });

  it('reads the path, catalog and module of each route', () => {
    expect(routes).toEqual(
      expect.arrayContaining<LazyRoute>([
        { path: 'home', catalogs: ['catalogue'], module: 'features/catalogue/home-page' },
        { path: 'cars', catalogs: ['catalogue'], module: 'features/catalogue/cars-page' },
        {
          path: 'cars/:slug',
          catalogs: ['catalogue'],
          module: 'features/catalogue/car-details-page',
        },
        {
          path: 'cars/book',
          catalogs: ['booking', 'domain'],
          module: 'features/booking/booking-page',
          framed: true,
        },
        { path: 'staff', catalogs: ['staff', 'domain'], module: 'features/staff/staff-board-page' },
        {
          path: 'staff/bookings/:id',
          catalogs: ['staff', 'domain'],
          module: 'features/staff/staff-booking-page',
        },
        { path: 'sign-in', catalogs: ['auth'], module: 'features/auth/sign-in-page' },
        {
          path: 'access-denied',
          catalogs: ['content'],
          module: 'features/content/access-denied-page',
        },
      ]),
    );
  });

  it('names modules that exist, under unique paths', () => {
    for (const route of routes) {
      expect(existsSync(resolve(projectDir, `src/${route.module}.tsx`)), route.module).toBe(true);
    }
    expect(new Set(routes.map((route) => route.path)).size).toBe(routes.length);
  });

  it('ignores commented-out routes and finds routes spread over several lines', () => {
    const parsed = parseLazyRoutes(`
      // { path: 'old', lazy: page('content', () => import('@/features/content/old-page')) },
      /* { path: 'older', lazy: page('content', () => import('@/features/content/older-page')) }, */
      const routes = [
        {
          path:
            'long/path',
          lazy: page(
            'content',
            () =>
              import(
                '@/features/content/long-page'
              ),
          ),
        },
        { path: 'eager', element: null },
        { path: 'outside', lazy: page('content', () => import('./relative-page')) },
      ];
    `);
    expect(parsed).toEqual([
      { path: 'long/path', catalogs: ['content'], module: 'features/content/long-page' },
    ]);
  });

  it('marks a route whose screen has a frame', () => {
    const parsed = parseLazyRoutes(`[
      { path: 'book', lazy: page('booking', () => import('@/features/booking/b'), { frame: F }) },
      { path: 'plain', lazy: page('content', () => import('@/features/content/p'), {}) },
    ]`);
    expect(parsed).toEqual([
      { path: 'book', catalogs: ['booking'], module: 'features/booking/b', framed: true },
      { path: 'plain', catalogs: ['content'], module: 'features/content/p' },
    ]);
  });
});

describe('pathPattern', () => {
  const matches = (path: string, url: string) => new RegExp(pathPattern(path)).test(url);

  it('matches a static path, with or without a trailing slash, and nothing below it', () => {
    expect(matches('cars', '/cars')).toBe(true);
    expect(matches('cars', '/cars/')).toBe(true);
    expect(matches('cars', '/cars/x')).toBe(false);
    expect(matches('cars', '/carsx')).toBe(false);
    expect(matches('cars', '/x/cars')).toBe(false);
  });

  it('matches one segment for a parameter', () => {
    expect(pathPattern('cars/:slug')).toBe('^/cars/[^/]+/?$');
    expect(matches('cars/:slug', '/cars/clio')).toBe(true);
    expect(matches('cars/:slug', '/cars/clio/')).toBe(true);
    expect(matches('cars/:slug', '/cars/clio/x')).toBe(false);
    expect(matches('cars/:slug', '/cars/')).toBe(false);
  });

  it('escapes regular expression characters', () => {
    expect(matches('privacy-policy', '/privacy-policy')).toBe(true);
    expect(matches('a.b', '/a.b')).toBe(true);
    expect(matches('a.b', '/aXb')).toBe(false);
    expect(matches('a+b', '/a+b')).toBe(true);
    expect(matches('a+b', '/aab')).toBe(false);
  });
});

const root = '/project';

function chunk(fileName: string, fields: Partial<OutputChunk> = {}): OutputChunk {
  return {
    type: 'chunk',
    fileName,
    isEntry: false,
    imports: [],
    facadeModuleId: null,
    moduleIds: [],
    ...fields,
  } as OutputChunk;
}

function bundleOf(items: Array<OutputChunk | OutputAsset>): OutputBundle {
  return Object.fromEntries(items.map((item) => [item.fileName, item])) as OutputBundle;
}

const fakeBundle = bundleOf([
  chunk('assets/shell.js', {
    isEntry: true,
    imports: ['assets/react.js'],
    facadeModuleId: `${root}/index.html`,
    moduleIds: [`${root}/src/main.tsx`, `${root}/src/features/catalogue/home-page.tsx`],
  }),
  chunk('assets/react.js', { moduleIds: [`${root}/node_modules/react/index.js`] }),
  chunk('assets/cars-page.js', {
    imports: ['assets/db.js', 'assets/react.js'],
    facadeModuleId: `${root}/src/features/catalogue/cars-page.tsx`,
    moduleIds: [`${root}/src/features/catalogue/cars-page.tsx`],
  }),
  chunk('assets/db.js', {
    imports: ['assets/dexie.js', 'assets/react.js'],
    moduleIds: [`${root}/src/infra/db.ts`],
  }),
  chunk('assets/dexie.js', { moduleIds: [`${root}/node_modules/dexie/dist/dexie.mjs`] }),
  // `import('@/infra/db')` from the shell: a facade that re-exports the shared db chunk.
  chunk('assets/db-facade.js', {
    isDynamicEntry: true,
    imports: ['assets/db.js'],
    facadeModuleId: `${root}/src/infra/db.ts`,
  }),
  chunk('assets/car-details-page.js', {
    imports: ['assets/db.js'],
    facadeModuleId: `${root}/src/features/catalogue/car-details-page.tsx`,
    moduleIds: [`${root}/src/features/catalogue/car-details-page.tsx`],
  }),
  // A route module merged into a shared chunk, without a facade.
  chunk('assets/shared.js', {
    moduleIds: [`${root}/src/features/booking/booking-page.tsx`, `${root}/src/domain/money.ts`],
  }),
  chunk('assets/core-fr.js', { moduleIds: [`${root}/src/locales/fr/core.po`] }),
  chunk('assets/catalogue-fr.js', { moduleIds: [`${root}/src/locales/fr/catalogue.po`] }),
  chunk('assets/booking-fr.js', { moduleIds: [`${root}/src/locales/fr/booking.po?lingui`] }),
  chunk('assets/core-ar.js', { moduleIds: [`${root}/src/locales/ar/core.po`] }),
  chunk('assets/catalogue-ar.js', { moduleIds: [`${root}/src/locales/ar/catalogue.po`] }),
  { type: 'asset', fileName: 'assets/style.css' } as OutputAsset,
]);

const fakeRoutes: LazyRoute[] = [
  { path: 'cars/:slug', catalogs: ['catalogue'], module: 'features/catalogue/car-details-page' },
  { path: 'cars', catalogs: ['catalogue'], module: 'features/catalogue/cars-page' },
  { path: 'cars/book', catalogs: ['booking'], module: 'features/booking/booking-page' },
  { path: 'home', catalogs: ['catalogue'], module: 'features/catalogue/home-page' },
];

describe('preloadTable', () => {
  const table = preloadTable(fakeBundle, root, fakeRoutes, ['fr', 'ar', 'en']);
  const sortedFiles = table.routes.map(
    ([pattern, files, catalog]) => [pattern, [...files].sort(), catalog] as const,
  );

  it("lists a route's chunks and their imports (and the facades into them), without what index.html already loads", () => {
    expect(sortedFiles).toContainEqual([
      '^/cars/?$',
      ['assets/cars-page.js', 'assets/db-facade.js', 'assets/db.js', 'assets/dexie.js'],
      ['catalogue'],
    ]);
    expect(sortedFiles).toContainEqual([
      '^/cars/[^/]+/?$',
      ['assets/car-details-page.js', 'assets/db-facade.js', 'assets/db.js', 'assets/dexie.js'],
      ['catalogue'],
    ]);
    // The db facade would bring code this route does not load: not preloaded.
    expect(sortedFiles).toContainEqual(['^/cars/book/?$', ['assets/shared.js'], ['booking']]);
    // Bundled into the entry: nothing more to load.
    expect(sortedFiles).toContainEqual(['^/home/?$', [], ['catalogue']]);
  });

  it('marks a framed route, its files kept for what its screen needs (the budget)', () => {
    const framed = fakeRoutes.map((route) =>
      route.path === 'cars/book' ? { ...route, framed: true as const } : route,
    );
    const marked = preloadTable(fakeBundle, root, framed, ['fr']);
    expect(marked.routes).toContainEqual(['^/cars/book/?$', ['assets/shared.js'], ['booking'], 1]);
    expect(firstScreenFiles(fakeBundle, root, framed, 'fr')).toEqual(
      firstScreenFiles(fakeBundle, root, fakeRoutes, 'fr'),
    );
  });

  it('orders static routes before parameterised ones', () => {
    expect(table.routes.map(([pattern]) => pattern)).toEqual([
      '^/cars/?$',
      '^/cars/book/?$',
      '^/home/?$',
      '^/cars/[^/]+/?$',
    ]);
  });

  it("finds each locale's catalog chunks", () => {
    expect(table.catalogs).toEqual({
      fr: {
        core: 'assets/core-fr.js',
        catalogue: 'assets/catalogue-fr.js',
        booking: 'assets/booking-fr.js',
      },
      ar: { core: 'assets/core-ar.js', catalogue: 'assets/catalogue-ar.js' },
      en: {},
    });
  });

  it('throws when a route has no chunk', () => {
    expect(() =>
      preloadTable(
        fakeBundle,
        root,
        [{ path: 'gone', catalogs: ['content'], module: 'features/content/gone-page' }],
        ['fr'],
      ),
    ).toThrow('features/content/gone-page');
  });
});

describe('firstScreenFiles', () => {
  it("adds to a route's chunks what index.html loads and the route's catalogs", () => {
    const screens = firstScreenFiles(fakeBundle, root, fakeRoutes, 'fr');
    const entry = ['assets/shell.js', 'assets/react.js'];
    expect(screens.find((s) => s.path === 'cars/book')?.files).toEqual(
      [...entry, 'assets/shared.js', 'assets/core-fr.js', 'assets/booking-fr.js'].sort(),
    );
    expect(screens.find((s) => s.path === 'home')?.files).toEqual(
      [...entry, 'assets/core-fr.js', 'assets/catalogue-fr.js'].sort(),
    );
  });
});

describe('preloadScript', () => {
  const table: PreloadTable = {
    routes: [
      [pathPattern('home'), ['assets/home-page.js'], ['catalogue']],
      [pathPattern('cars'), ['assets/cars-page.js', 'assets/db.js'], ['catalogue']],
      [pathPattern('cars/book'), ['assets/booking-page.js'], ['booking', 'domain']],
      [pathPattern('cars/:slug'), ['assets/car-details-page.js', 'assets/db.js'], ['catalogue']],
    ],
    catalogs: {
      fr: {
        core: 'assets/core-fr.js',
        catalogue: 'assets/catalogue-fr.js',
        booking: 'assets/booking-fr.js',
        domain: 'assets/domain-fr.js',
      },
      ar: { core: 'assets/core-ar.js', catalogue: 'assets/catalogue-ar.js' },
      en: {},
    },
  };

  /** Runs the script at `url` and returns the preloaded hrefs, in order. */
  function preloadsAt(url: string, script = preloadScript(table, '/', 'fr')): string[] {
    history.replaceState(null, '', url);
    new Function(script)();
    return [...document.head.querySelectorAll('link[rel=modulepreload]')].map(
      (link) => link.getAttribute('href') ?? '',
    );
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.head.innerHTML = '';
    localStorage.clear();
    history.replaceState(null, '', '/');
  });

  it("preloads the route's chunks and the default language's catalogs", () => {
    expect(preloadsAt('/cars/renault-clio')).toEqual([
      '/assets/core-fr.js',
      '/assets/car-details-page.js',
      '/assets/db.js',
      '/assets/catalogue-fr.js',
    ]);
    const link = document.head.querySelector('link[rel=modulepreload]') as HTMLLinkElement;
    expect(link.crossOrigin).toBe('');
    expect(link.fetchPriority).toBe('low');
  });

  it('preloads nothing of a framed route but the core catalog (the shell draws its frame first)', () => {
    const framed: PreloadTable = {
      ...table,
      routes: table.routes.map(([pattern, files, catalogs]) =>
        pattern === pathPattern('cars/book')
          ? ([pattern, files, catalogs, 1] as const)
          : ([pattern, files, catalogs] as const),
      ) as PreloadTable['routes'],
    };
    expect(preloadsAt('/cars/book', preloadScript(framed, '/', 'fr'))).toEqual([
      '/assets/core-fr.js',
    ]);
    document.head.innerHTML = '';
    // Only that route: the others keep their preloads.
    expect(preloadsAt('/cars', preloadScript(framed, '/', 'fr'))).toEqual([
      '/assets/core-fr.js',
      '/assets/cars-page.js',
      '/assets/db.js',
      '/assets/catalogue-fr.js',
    ]);
  });

  it('takes the first matching route, with every catalog it names', () => {
    expect(preloadsAt('/cars/book')).toEqual([
      '/assets/core-fr.js',
      '/assets/booking-page.js',
      '/assets/booking-fr.js',
      '/assets/domain-fr.js',
    ]);
  });

  it('uses the stored language', () => {
    localStorage.setItem('locale', 'ar');
    expect(preloadsAt('/cars')).toEqual([
      '/assets/core-ar.js',
      '/assets/cars-page.js',
      '/assets/db.js',
      '/assets/catalogue-ar.js',
    ]);
  });

  it('falls back to the default language for an unknown stored one', () => {
    localStorage.setItem('locale', 'xx');
    expect(preloadsAt('/cars')).toEqual([
      '/assets/core-fr.js',
      '/assets/cars-page.js',
      '/assets/db.js',
      '/assets/catalogue-fr.js',
    ]);
  });

  it('treats / as /home', () => {
    expect(preloadsAt('/')).toEqual([
      '/assets/core-fr.js',
      '/assets/home-page.js',
      '/assets/catalogue-fr.js',
    ]);
  });

  it('preloads only the core catalog on an unknown path', () => {
    expect(preloadsAt('/nowhere/at/all')).toEqual(['/assets/core-fr.js']);
  });

  it('matches paths under the base and prefixes it', () => {
    expect(preloadsAt('/app/cars', preloadScript(table, '/app/', 'fr'))).toEqual([
      '/app/assets/core-fr.js',
      '/app/assets/cars-page.js',
      '/app/assets/db.js',
      '/app/assets/catalogue-fr.js',
    ]);
  });

  // happy-dom's localStorage does not go through Storage.prototype: the global is replaced.
  it('never throws when storage is blocked', () => {
    const getItem = vi.fn(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.stubGlobal('localStorage', { getItem });
    expect(preloadsAt('/cars')).toEqual([
      '/assets/core-fr.js',
      '/assets/cars-page.js',
      '/assets/db.js',
      '/assets/catalogue-fr.js',
    ]);
    expect(getItem).toHaveBeenCalledWith('locale');
  });

  it('never throws when the storage itself cannot be reached', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!;
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    try {
      expect(preloadsAt('/cars')).toEqual([
        '/assets/core-fr.js',
        '/assets/cars-page.js',
        '/assets/db.js',
        '/assets/catalogue-fr.js',
      ]);
    } finally {
      Object.defineProperty(globalThis, 'localStorage', original);
    }
  });

  it("leaves a controlled page's preloads to the app's starter", () => {
    vi.stubGlobal('navigator', { serviceWorker: { controller: {} } });
    expect(preloadsAt('/cars')).toEqual([]);
    const preload = (window as unknown as Record<string, unknown>)[ROUTE_PRELOAD_GLOBAL];
    expect(preload).toBeTypeOf('function');
    (preload as () => void)();
    expect(
      [...document.head.querySelectorAll('link[rel=modulepreload]')].map((l) =>
        l.getAttribute('href'),
      ),
    ).toEqual([
      '/assets/core-fr.js',
      '/assets/cars-page.js',
      '/assets/db.js',
      '/assets/catalogue-fr.js',
    ]);
    delete (window as unknown as Record<string, unknown>)[ROUTE_PRELOAD_GLOBAL];
  });

  it("leaves them to the app's starter on a first visit whose largest paint is a photo it awaits", () => {
    const page = window as unknown as Record<string, unknown>;
    const preloadLeft = () => typeof page[ROUTE_PRELOAD_GLOBAL] === 'function';
    vi.stubGlobal('navigator', {});
    try {
      // The catalogue's first page on its way (the head's prefetch): the list's first card, a car's photo.
      page[FIRST_CARS_GLOBAL] = Promise.resolve([]);
      for (const url of ['/cars', '/cars/renault-clio']) {
        expect(preloadsAt(url)).toEqual([]);
        expect(preloadLeft()).toBe(true);
        delete page[ROUTE_PRELOAD_GLOBAL];
      }
      // A query string (no cards drawn), the home page (its cars are below the hero), the wizard.
      for (const url of ['/cars?fuel=diesel', '/home', '/cars/book']) {
        expect(preloadsAt(url).length).toBeGreaterThan(0);
        expect(preloadLeft()).toBe(false);
        document.head.innerHTML = '';
      }
      // No prefetch (a repeat visit's car page): at once.
      delete page[FIRST_CARS_GLOBAL];
      expect(preloadsAt('/cars/renault-clio')).toHaveLength(4);
    } finally {
      delete page[FIRST_CARS_GLOBAL];
      delete page[ROUTE_PRELOAD_GLOBAL];
    }
  });

  it('preloads at once without a service worker in control', () => {
    vi.stubGlobal('navigator', { serviceWorker: { controller: null } });
    expect(preloadsAt('/cars')).toHaveLength(4);
    document.head.innerHTML = '';
    vi.stubGlobal('navigator', {});
    expect(preloadsAt('/cars')).toHaveLength(4);
  });

  it('is safe inside a <script> element', () => {
    const script = preloadScript(
      { routes: [['^/x/?$', ['assets/</script><b>.js'], ['core']]], catalogs: {} },
      '/',
      'fr',
    );
    expect(script).not.toContain('</script');
    expect(preloadsAt('/x', script)).toEqual(['/assets/</script><b>.js']);
  });
});
