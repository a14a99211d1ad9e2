/**
 * Build step (vite.config.ts): the first screen's markup in index.html, so a first visit paints
 * the shell, the home page's hero or the car list's skeleton with the HTML and the stylesheet,
 * not after the app's code has downloaded and run (docs/performance.md, "The first screen in
 * the HTML").
 *
 * Each page of FIRST_SCREENS is rendered in each language by the app's own components
 * (src/app/prerender.tsx, loaded through Vite's SSR in Node) into a `<template>` after
 * `<div id="root">`, one document per language: index.html in the default language (a first
 * visit has no stored language), `index.<locale>.html` in the others, which the service worker
 * serves to a device in that language, and `index.shell.html` without any copy, which it serves
 * on the other pages (src/infra/shell-document.ts, src/sw.ts). An inline script
 * in front of them knows, from the URL and the stored language (localStorage `locale`, the key
 * src/infra/i18n.ts reads; French by default), which one this visit shows; each template is
 * followed by a one-line script that moves it into #root if it is that one, so it paints as
 * soon as its bytes are here. When the document is not in the stored language (no service worker
 * yet), nothing matches and #root keeps its own placeholder (the logo bar), as other pages do.
 *
 * The copy is `inert` (nothing to click or type into before the code that handles it) and the
 * app replaces it on its first render (createRoot clears #root, in the same frame): no
 * hydration, so no mismatch to recover from, and the copy's elements are gone, not moved (no
 * layout shift, no duplicate landmark). The service worker serves these documents for every
 * navigation (src/sw.ts), so an offline start paints them too.
 */
import { createServer, type Plugin, type PluginOption } from 'vite';

import type { CardTemplates } from '../src/features/catalogue/first-cards.ts';
import {
  FIRST_SCREEN_PAGES,
  OTHER_PAGES_DOCUMENT,
  shellDocument,
} from '../src/infra/shell-document.ts';
import {
  CAR_PAGE_ROUTE,
  CAR_PHOTO_GLOBAL,
  FIRST_CARS_GLOBAL,
  scriptJson,
} from '../src/sync/catalogue-prefetch.ts';
import {
  cardTemplateHtml,
  DRAW_FIRST_CARDS_GLOBAL,
  firstCardsScript,
  PICTURE_FIRST_SCREENS,
} from './first-cards.ts';
import { ROUTE_PRELOAD_GLOBAL } from './route-preload.ts';

/**
 * A page written into index.html: the path rendered, the URLs that show it (not with a query
 * string matching `unless`), its catalogs.
 */
export type FirstScreen = {
  name: string;
  path: string;
  pattern: string;
  unless?: string;
  catalogs: readonly string[];
};

/**
 * The pages a first visit usually opens: the home page (and `/`), the car list, and the booking
 * wizard's frame (a link to book a car, shared or from a search).
 */
export const FIRST_SCREENS: FirstScreen[] = [...FIRST_SCREEN_PAGES];

/** The marker in index.html, after #root, that the templates and scripts replace. */
export const FIRST_SCREEN_MARKER = '<!-- kiraa:first-screen -->';

/** localStorage key of the session hint (src/infra/session-view.ts, SESSION_HINT_KEY). */
const SESSION_HINT_KEY = 'kiraa-signed-in';

/** A template's id: `home-fr`. */
export function screenId(name: string, locale: string): string {
  return `${name}-${locale}`;
}

/**
 * The app's render, trimmed of what a first paint never shows and that is not the page's own:
 * the document title (index.html has its own), and the closed navigation drawer (`<dialog>`).
 */
export function trimMarkup(html: string): string {
  return html.replace(/<title>[^<]*<\/title>/g, '').replace(/<dialog\b[\s\S]*?<\/dialog>/g, '');
}

/**
 * The chooser (ES5, must never throw): the id of the template this visit shows, and
 * `__kiraaFirstScreen(id)`, called after each template, which moves it into #root when it is
 * that one. A device with a session hint gets no "sign in" link: the app's header shows none
 * while it loads the session.
 */
export function chooserScript(
  screens: FirstScreen[],
  locales: readonly string[],
  defaultLocale: string,
): string {
  const table = JSON.stringify(
    screens.map((screen) => [screen.pattern, screen.name, screen.unless ?? null]),
  );
  return [
    '(function () {',
    '  var wanted = null;',
    '  var signedIn = true;',
    '  try {',
    `    var locale = ${JSON.stringify(defaultLocale)};`,
    '    var stored = null;',
    '    try {',
    "      stored = localStorage.getItem('locale');",
    `      signedIn = localStorage.getItem(${JSON.stringify(SESSION_HINT_KEY)}) === '1';`,
    '    } catch (error) {}',
    `    if (${JSON.stringify(locales)}.indexOf(stored) >= 0) locale = stored;`,
    `    var table = ${table};`,
    '    for (var i = 0; i < table.length; i++) {',
    '      if (new RegExp(table[i][0]).test(location.pathname)) {',
    '        if (table[i][2] && new RegExp(table[i][2]).test(location.search)) break;',
    "        wanted = table[i][1] + '-' + locale;",
    '        break;',
    '      }',
    '    }',
    '  } catch (error) {}',
    '  window.__kiraaFirstScreen = function (id) {',
    '    try {',
    '      if (id !== wanted) return;',
    "      var template = document.getElementById('kiraa-first-' + id);",
    "      var root = document.getElementById('root');",
    '      if (!template || !root) return;',
    '      var copy = template.content.cloneNode(true);',
    '      if (signedIn) {',
    '        var link = copy.querySelector(\'[data-testid="sign-in-link"]\');',
    '        if (link) link.parentNode.removeChild(link);',
    '      }',
    '      root.replaceChildren(copy);',
    '      window.__kiraaFirstScreenId = id;',
    '      // The first cards, in this same task when the cars are already here (first-cards.ts).',
    `      var draw = window[${JSON.stringify(DRAW_FIRST_CARDS_GLOBAL)}];`,
    "      if (typeof draw === 'function') draw();",
    '    } catch (error) {',
    '      // The placeholder stays; the app renders the page when its code arrives.',
    '    }',
    '  };',
    '})();',
  ].join('\n');
}

/**
 * The templates and scripts that replace the marker: the chooser, the car cards' templates and
 * the script that draws the first cards (first-cards.ts; before the copies, so the copy that
 * comes in can get its cards in the same task), then each page's copy.
 */
export function firstScreenHtml(
  rendered: Array<{ id: string; html: string }>,
  chooser: string,
  cards: Record<string, CardTemplates> = {},
): string {
  return [
    `<script>\n${chooser}\n</script>`,
    ...(Object.keys(cards).length > 0
      ? [
          ...Object.entries(cards).map(([locale, templates]) =>
            cardTemplateHtml(locale, templates),
          ),
          `<script>\n${firstCardsScript(cards)}\n</script>`,
        ]
      : []),
    ...rendered.map(
      ({ id, html }) =>
        `<template id="kiraa-first-${id}"><div data-first-screen="${id}" inert style="display: contents">${html}</div></template>` +
        `<script>__kiraaFirstScreen(${JSON.stringify(id)})</script>`,
    ),
  ].join('\n');
}

/**
 * The Vite plugin (builds only). `plugins` are those the app's modules need to run in Node
 * (React, Lingui's macro and catalogs); `alias` the app's import aliases.
 */
export function firstScreen(options: {
  locales: readonly string[];
  defaultLocale: string;
  alias: Record<string, string>;
  plugins: () => PluginOption[];
  screens?: FirstScreen[];
}): Plugin {
  const screens = options.screens ?? FIRST_SCREENS;
  const locales = [
    options.defaultLocale,
    ...options.locales.filter((l) => l !== options.defaultLocale),
  ];
  let root = '';
  let mode = 'production';
  /** index.html's markup for the marker, and each other document's (file name → markup). */
  let own = '';
  const documents: Record<string, string> = {};
  return {
    name: 'kiraa-first-screen',
    apply: 'build',
    // After Vite's own HTML plugin: generateBundle reads the finished index.html.
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      mode = config.mode;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!html.includes(FIRST_SCREEN_MARKER)) {
          throw new Error(`first-screen: index.html has no ${FIRST_SCREEN_MARKER} marker`);
        }
        const server = await createServer({
          configFile: false,
          root,
          mode,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          resolve: { alias: options.alias },
          plugins: options.plugins(),
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const { prerender, prerenderCards } = (await server.ssrLoadModule(
            '/src/app/prerender.tsx',
          )) as {
            prerender: (
              path: string,
              locale: string,
              catalogs: readonly string[],
            ) => Promise<string>;
            prerenderCards: (locale: string) => Promise<CardTemplates>;
          };
          const chooser = chooserScript(screens, locales, options.defaultLocale);
          // The other pages' document: no copy (they keep #root's placeholder).
          documents[OTHER_PAGES_DOCUMENT] = '';
          for (const locale of locales) {
            const rendered: Array<{ id: string; html: string }> = [];
            for (const screen of screens) {
              rendered.push({
                id: screenId(screen.name, locale),
                html: trimMarkup(await prerender(screen.path, locale, screen.catalogs)),
              });
            }
            const cards = { [locale]: await prerenderCards(locale) };
            const block = firstScreenHtml(rendered, chooser, cards);
            if (locale === options.defaultLocale) own = block;
            else documents[shellDocument(locale, screens[0]!.path)] = block;
          }
          return html.replace(FIRST_SCREEN_MARKER, () => own);
        } finally {
          await server.close();
        }
      },
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('first-screen: the build wrote no index.html');
      index.source = startAfterFirstPaint(String(index.source));
      for (const { fileName, source } of otherDocuments(index.source, own, documents)) {
        this.emitFile({ type: 'asset', fileName, source });
      }
    },
  };
}

/** The app's module scripts as Vite writes them into index.html's head. */
const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;

/** How long the starter waits at most for the page's largest photo. */
export const PICTURE_WAIT_MS = 1_500;

/**
 * The starter (ES5, must never throw): adds the app's module scripts, after the route preloads a
 * page left to it (route-preload.ts). When a copy is on screen it waits for the browser's next
 * frame first, so the copy and its first cards are painted before the app's code is evaluated (a
 * task of ≈ 0.5 s on a slow phone, which would otherwise come between the copy and its first
 * paint). On a first visit to a page whose largest paint is a photo index.html draws (the first
 * card of an eager list, PICTURE_FIRST_SCREENS in first-cards.ts; a car's page, whose photo the
 * head's script draws, src/sync/catalogue-prefetch.ts) that frame is the one after the photo has
 * loaded or failed (at most PICTURE_WAIT_MS): its download does not share the link with the
 * route's code, nor its paint the main thread with the app's evaluation. On an airport's network
 * the shell is still downloading then, so the app takes over no later (docs/performance.md). A
 * hidden page paints no frame: it starts at once, and a frame that never comes is given up on
 * after half a second.
 */
export function starterScript(sources: string[]): string {
  return [
    '(function () {',
    '  var started = false;',
    '  function start() {',
    '    if (started) return;',
    '    started = true;',
    "    // The route's preloads left to the starter (route-preload.ts), before the scripts that use them.",
    `    var preload = window[${scriptJson(ROUTE_PRELOAD_GLOBAL)}];`,
    "    if (typeof preload === 'function') preload();",
    `    ${scriptJson(sources)}.forEach(function (src) {`,
    "      var script = document.createElement('script');",
    "      script.type = 'module';",
    "      script.crossOrigin = '';",
    '      script.src = src;',
    '      document.head.appendChild(script);',
    '    });',
    '  }',
    '  function afterPaint() {',
    '    requestAnimationFrame(function () {',
    '      setTimeout(start, 0);',
    '    });',
    '  }',
    "  // The catalogue's first page when this page's largest paint is a photo drawn from it, on a",
    '  // first visit: under a service worker the code comes from its cache, the photo maybe not.',
    '  function pictureRows() {',
    '    if (navigator.serviceWorker && navigator.serviceWorker.controller) return null;',
    `    var rows = window[${scriptJson(FIRST_CARS_GLOBAL)}];`,
    "    if (!rows || typeof rows.then !== 'function') return null;",
    `    if (${CAR_PAGE_ROUTE.toString()}.test(location.pathname)) return rows;`,
    "    var id = window.__kiraaFirstScreenId || '';",
    `    var drawing = typeof window[${scriptJson(DRAW_FIRST_CARDS_GLOBAL)}] === 'function';`,
    `    var screens = ${scriptJson(PICTURE_FIRST_SCREENS.map((page) => page.name))};`,
    "    return drawing && screens.indexOf(id.slice(0, id.lastIndexOf('-'))) >= 0 ? rows : null;",
    '  }',
    '  try {',
    '    var rows = pictureRows();',
    "    if ((rows || window.__kiraaFirstScreenId) && !document.hidden && typeof requestAnimationFrame === 'function') {",
    '      if (!rows) {',
    '        afterPaint();',
    '        setTimeout(start, 500);',
    '        return;',
    '      }',
    "      // After the drawing scripts' own callbacks on the same rows: the photo is drawn.",
    '      rows.then(function () {',
    '        var drawn = window.__kiraaFirstCards;',
    `        var photo = window[${scriptJson(CAR_PHOTO_GLOBAL)}];`,
    '        var picture = (drawn && drawn.picture) || (photo && photo.image);',
    '        if (!picture || picture.complete) return afterPaint();',
    "        picture.addEventListener('load', afterPaint);",
    "        picture.addEventListener('error', afterPaint);",
    '      }, afterPaint);',
    `      setTimeout(start, ${PICTURE_WAIT_MS});`,
    '      return;',
    '    }',
    '  } catch (error) {}',
    '  start();',
    '})();',
  ].join('\n');
}

/** The marker in index.html's head, before the API hints, where the app's modules are preloaded. */
export const APP_CODE_MARKER = '<!-- kiraa:app-code -->';

/**
 * The finished index.html with the app's module scripts started by `starterScript` at the end of
 * the body: the head keeps them as `modulepreload` links, at a low priority: the first screen
 * paints from the HTML and the stylesheet, and its first cards need the catalogue and the first
 * photo, not the app's code, which would otherwise share the link with them (docs/performance.md,
 * "The first screen in the HTML"). The links go to APP_CODE_MARKER, ahead of the catalogue's
 * prefetch script: on a slow link the document's first bytes name the code, which starts
 * downloading before the rest of the head has come.
 */
export function startAfterFirstPaint(index: string): string {
  const sources = [...index.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  if (!sources.length || !index.includes('</body>') || !index.includes(APP_CODE_MARKER)) {
    throw new Error(
      `first-screen: index.html has no module script to start after the copy's paint, or no ${APP_CODE_MARKER}`,
    );
  }
  const links = sources
    .map((src) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${src}">`)
    .join('\n    ');
  return index
    .replace(MODULE_SCRIPT, '')
    .replace(APP_CODE_MARKER, () => links)
    .replace('</body>', () => `<script>\n${starterScript(sources)}\n</script>\n</body>`);
}

/**
 * The service worker's documents (src/infra/shell-document.ts): the finished index.html with its
 * first screen (`own`: the pages in the default language, the card templates and the drawing
 * script) swapped for each document's (the pages in another language, or nothing). Everything else
 * (the head's scripts, the stylesheet, the route preloads) stays byte for byte the same.
 */
export function otherDocuments(
  index: string,
  own: string,
  documents: Record<string, string>,
): Array<{ fileName: string; source: string }> {
  if (!own || !index.includes(own)) {
    throw new Error('first-screen: index.html does not hold its first screen');
  }
  return Object.entries(documents).map(([fileName, block]) => ({
    fileName,
    source: index.replace(own, () => block),
  }));
}
