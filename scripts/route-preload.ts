/**
 * Build step (vite.config.ts): the first screen's code starts downloading with the page.
 *
 * Without it, a visitor's phone fetches index.html, then the shell's script, and only once that
 * has run does the app ask for the screen's chunks and its translations: one more round trip and
 * one more download, one after the other. index.html gets an inline script that matches the URL
 * against the route table and adds `<link rel="modulepreload">` for that screen's chunks (those
 * the shell does not already load) and for the language's catalogs, so they download alongside
 * the shell, at the shell's low priority (first-screen.ts, `startAfterFirstPaint`): after the
 * stylesheet, the catalogue and the first photo. The app then imports them as usual, from the
 * module map.
 *
 * The routes come from src/app/routes.tsx, read with TypeScript's parser: every object with a
 * `path` and `lazy: page('<catalog>', () => import('@/<module>'))` — or `page(['<catalog>', …], …)`
 * for a screen that needs several catalogs — (a unit test checks that
 * none is missed).
 *
 * A screen with a frame (`page(…, …, { frame })`: the shell draws its first markup) is not
 * preloaded: its chunks would share the network with the shell's and hold back the frame, which
 * needs only the shell. The app asks for them as soon as the shell runs (`firstScreenReady`), and
 * they download while the shell starts (docs/performance.md, "The wizard's first screen").
 *
 * On a page a service worker controls (a repeat visit) the files come from its cache in
 * milliseconds, but each preload costs the page's main thread ahead of the first screen's paint:
 * there the script leaves them to the app's starter (`ROUTE_PRELOAD_GLOBAL`), which adds them
 * just before the app's scripts, after that paint (docs/performance.md, "A repeat visit's main
 * thread").
 */
import type { OutputBundle, OutputChunk } from 'rolldown';
import ts from 'typescript';
import type { Plugin } from 'vite';

import { CAR_PAGE_ROUTE, FIRST_CARS_GLOBAL, scriptJson } from '../src/sync/catalogue-prefetch.ts';
import { pictureFirstRoute } from './first-cards.ts';

export type LazyRoute = {
  path: string;
  catalogs: string[];
  module: string;
  /** The shell draws a frame of it while it loads: its chunks are not preloaded. */
  framed?: true;
};

/** The lazy routes of routes.tsx (`{ path: '…', lazy: page('…', () => import('@/…')) }`). */
export function parseLazyRoutes(source: string): LazyRoute[] {
  const file = ts.createSourceFile(
    'routes.tsx',
    source,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TSX,
  );
  const routes: LazyRoute[] = [];
  const text = (node: ts.Node | undefined) =>
    node && ts.isStringLiteralLike(node) ? node.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const property = (name: string) =>
        node.properties.find(
          (p): p is ts.PropertyAssignment =>
            ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
        )?.initializer;
      const path = text(property('path'));
      const lazy = property('lazy');
      if (path !== undefined && lazy && ts.isCallExpression(lazy)) {
        const [catalog, loader, options] = lazy.arguments;
        const body = loader && ts.isArrowFunction(loader) ? loader.body : undefined;
        const module =
          body && ts.isCallExpression(body) && body.expression.kind === ts.SyntaxKind.ImportKeyword
            ? text(body.arguments[0])
            : undefined;
        const catalogs =
          catalog && ts.isArrayLiteralExpression(catalog)
            ? catalog.elements.map(text).filter((name): name is string => !!name)
            : [text(catalog)].filter((name): name is string => !!name);
        const framed =
          !!options &&
          ts.isObjectLiteralExpression(options) &&
          options.properties.some(
            (p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'frame',
          );
        if (catalogs.length > 0 && module?.startsWith('@/')) {
          routes.push({ path, catalogs, module: module.slice(2), ...(framed && { framed }) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return routes;
}

/** `cars/:slug` → `^/cars/[^/]+/?$`; static paths before parameterised ones when sorted. */
export function pathPattern(path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return `^/${segments.join('/')}/?$`;
}

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
}

/** A chunk and everything it imports statically, as file names. */
function closure(bundle: OutputBundle, fileName: string, into = new Set<string>()): Set<string> {
  if (into.has(fileName)) return into;
  into.add(fileName);
  const chunk = bundle[fileName];
  if (chunk?.type === 'chunk')
    for (const imported of chunk.imports) closure(bundle, imported, into);
  return into;
}

function chunkOf(bundle: OutputBundle, sourcePath: string): OutputChunk | undefined {
  return chunks(bundle).find((chunk) =>
    [chunk.facadeModuleId, ...chunk.moduleIds].some(
      (id) => id?.replace(/\?.*$/, '').replace(/\.(tsx?|po)$/, '') === sourcePath,
    ),
  );
}

export type PreloadTable = {
  /**
   * [URL pattern, chunk files, catalogs, 1 when framed] in matching order. A framed route's files
   * and catalogs are what its screen needs; the script preloads none of them (above).
   */
  routes: Array<[string, string[], string[]] | [string, string[], string[], 1]>;
  /** locale → catalog name → chunk file. */
  catalogs: Record<string, Record<string, string>>;
};

/** What each route needs beyond what index.html already loads. */
export function preloadTable(
  bundle: OutputBundle,
  root: string,
  routes: LazyRoute[],
  locales: readonly string[],
): PreloadTable {
  const initial = new Set<string>();
  for (const chunk of chunks(bundle)) if (chunk.isEntry) closure(bundle, chunk.fileName, initial);
  const ordered = [...routes].sort(
    (a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')),
  );
  const table: PreloadTable = { routes: [], catalogs: {} };
  for (const route of ordered) {
    const chunk = chunkOf(bundle, `${root}/src/${route.module}`);
    if (!chunk) throw new Error(`route-preload: no chunk for ${route.module}`);
    const files = [...closure(bundle, chunk.fileName)].filter((file) => !initial.has(file));
    const loaded = new Set([...initial, ...files]);
    // A dynamic import of a module that sits in a shared chunk goes through a facade (a few
    // re-exports): one more round trip once the import runs. Those whose code this route
    // already loads are preloaded with it (main.tsx imports the sync's modules this way).
    const facades = chunks(bundle).filter(
      (other) =>
        other.isDynamicEntry &&
        other.moduleIds.length === 0 &&
        other.imports.every((file) => loaded.has(file)),
    );
    files.push(...facades.map((facade) => facade.fileName));
    const pattern = pathPattern(route.path);
    table.routes.push(
      route.framed ? [pattern, files, route.catalogs, 1] : [pattern, files, route.catalogs],
    );
  }
  const catalogNames = new Set(['core', ...routes.flatMap((route) => route.catalogs)]);
  for (const locale of locales) {
    table.catalogs[locale] = {};
    for (const name of catalogNames) {
      const chunk = chunkOf(bundle, `${root}/src/locales/${locale}/${name}`);
      if (chunk) table.catalogs[locale]![name] = chunk.fileName;
    }
  }
  return table;
}

/**
 * What each route's first screen loads before it can render, with index.html's preloads: the
 * entry and its static imports, the route's chunks (as preloaded) and the route's catalogs in
 * `locale`. `path` is the route table's (`cars/:slug`).
 */
export function firstScreenFiles(
  bundle: OutputBundle,
  root: string,
  routes: LazyRoute[],
  locale: string,
): Array<{ path: string; files: string[] }> {
  const initial = new Set<string>();
  for (const chunk of chunks(bundle)) if (chunk.isEntry) closure(bundle, chunk.fileName, initial);
  const table = preloadTable(bundle, root, routes, [locale]);
  const catalogs = table.catalogs[locale] ?? {};
  return routes.map((route) => {
    const [, files] = table.routes.find(([pattern]) => pattern === pathPattern(route.path))!;
    const translations = ['core', ...route.catalogs].map((name) => catalogs[name]);
    const all = new Set([...initial, ...files, ...translations.filter((f): f is string => !!f)]);
    return { path: route.path, files: [...all].sort() };
  });
}

/** Where a controlled page's preloads wait for the app's starter (first-screen.ts). */
export const ROUTE_PRELOAD_GLOBAL = '__kiraaRoutePreload';

/** The inline script (ES5; it must never throw). `/` is the home page (the root redirects). */
export function preloadScript(table: PreloadTable, base: string, defaultLocale: string): string {
  return [
    '(function () {',
    '  try {',
    `    var table = ${scriptJson(table)};`,
    `    var base = ${scriptJson(base)};`,
    '    var path = location.pathname;',
    "    if (path.indexOf(base) === 0) path = '/' + path.slice(base.length);",
    "    if (path === '/') path = '/home';",
    `    var locale = ${scriptJson(defaultLocale)};`,
    '    try {',
    "      var stored = localStorage.getItem('locale');",
    '      if (stored && table.catalogs[stored]) locale = stored;',
    '    } catch (error) {}',
    '    var catalogs = table.catalogs[locale] || {};',
    '    var files = catalogs.core ? [catalogs.core] : [];',
    '    for (var i = 0; i < table.routes.length; i++) {',
    '      if (new RegExp(table.routes[i][0]).test(path)) {',
    '        if (table.routes[i][3]) break;',
    '        files = files.concat(table.routes[i][1]);',
    '        for (var j = 0; j < table.routes[i][2].length; j++) {',
    '          if (catalogs[table.routes[i][2][j]]) files.push(catalogs[table.routes[i][2][j]]);',
    '        }',
    '        break;',
    '      }',
    '    }',
    '    var preload = function () {',
    '      files.forEach(function (file) {',
    "        var link = document.createElement('link');",
    "        link.rel = 'modulepreload';",
    '        link.href = base + file;',
    "        link.crossOrigin = '';",
    "        link.fetchPriority = 'low';",
    '        document.head.appendChild(link);',
    '      });',
    '    };',
    '    // With a service worker in control every file comes from its cache in milliseconds, and',
    "    // each preload costs the page's main thread (≈ 20 ms on a slow phone) ahead of the first",
    "    // screen's paint; and on a first visit to a page whose largest paint is a photo drawn from",
    "    // the catalogue's first page (a list's first card, a car's page), the code waits for it.",
    "    // The app's starter calls them just before the app's scripts (first-screen.ts, `starterScript`).",
    '    if (',
    '      (navigator.serviceWorker && navigator.serviceWorker.controller) ||',
    `      (window[${scriptJson(FIRST_CARS_GLOBAL)}] && ((!location.search && ${pictureFirstRoute().toString()}.test(location.pathname)) || ${CAR_PAGE_ROUTE.toString()}.test(location.pathname)))`,
    '    ) {',
    `      window[${scriptJson(ROUTE_PRELOAD_GLOBAL)}] = preload;`,
    '    } else {',
    '      preload();',
    '    }',
    '  } catch (error) {',
    '    // The app loads the screen itself, a little later.',
    '  }',
    '})();',
  ].join('\n');
}

/** The Vite plugin: the table from the bundle, the script into index.html (builds only). */
export function routePreload(options: {
  routesSource: () => string;
  locales: readonly string[];
  defaultLocale: string;
}): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'kiraa-route-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle) return [];
        const table = preloadTable(
          context.bundle,
          root,
          parseLazyRoutes(options.routesSource()),
          options.locales,
        );
        return [
          {
            tag: 'script',
            children: preloadScript(table, base, options.defaultLocale),
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
