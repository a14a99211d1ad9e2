import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

import linguiConfig from './lingui.config.ts';
import { firstScreen } from './scripts/first-screen.ts';
import { routePreload } from './scripts/route-preload.ts';
import { apiSettings, MISSING_ANON_KEY } from './src/infra/api-settings.ts';
import { prefetchScript } from './src/sync/catalogue-prefetch.ts';

/** The marker in index.html, before the stylesheet, that the API hints replace. */
const API_HINTS_MARKER = '<!-- kiraa:api-hints -->';

/**
 * What index.html gets from the build's API settings (VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY),
 * in front of the stylesheet (a script after a stylesheet waits for it: on an airport's link the
 * catalogue's request would start a round trip and the stylesheet's bytes later):
 * - `<link rel="preconnect">` to the API: the connection (DNS, TCP, TLS) is set up while the
 *   app's code downloads. Anonymous (`crossorigin`), like the app's fetch calls.
 * - the first visit's catalogue download, started by the page itself (catalogue-prefetch.ts).
 */
function apiHints(): Plugin {
  let api = apiSettings({});
  return {
    name: 'kiraa-api-hints',
    configResolved(config) {
      api = apiSettings(loadEnv(config.mode, config.envDir || process.cwd(), 'VITE_'));
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(API_HINTS_MARKER)) {
          throw new Error(`vite.config.ts: index.html has no ${API_HINTS_MARKER} marker`);
        }
        const hints = [
          `<link rel="preconnect" href="${new URL(api.url).origin}" crossorigin="">`,
          `<script>${prefetchScript(api.url, api.anonKey ?? MISSING_ANON_KEY)}</script>`,
        ].join('\n    ');
        return html.replace(API_HINTS_MARKER, () => hints);
      },
    },
  };
}

/**
 * A chunk group's members, named by path from the project root: files, or folders (ending with
 * `/`) for everything under them. A path that no longer exists fails the build, so renaming or
 * moving a module never silently changes the bundle.
 */
function modules(...paths: string[]): (id: string) => boolean {
  const files = new Set<string>();
  const folders: string[] = [];
  for (const path of paths) {
    const absolute = fileURLToPath(new URL(path, import.meta.url));
    if (!existsSync(absolute)) {
      throw new Error(`vite.config.ts: the chunk groups name ${path}, which does not exist.`);
    }
    if (path.endsWith('/')) folders.push(absolute);
    else files.add(absolute);
  }
  return (id) => {
    const file = id.replace(/\?.*$/, '');
    return files.has(file) || folders.some((folder) => file.startsWith(folder));
  };
}

/** A chunk group's npm packages (and everything inside them). */
function packages(...names: string[]): (id: string) => boolean {
  const roots = names.map((name) =>
    fileURLToPath(new URL(`node_modules/${name}/`, import.meta.url)),
  );
  return (id) => roots.some((root) => id.startsWith(root));
}

function anyOf(...tests: Array<(id: string) => boolean>): (id: string) => boolean {
  return (id) => tests.some((test) => test(id));
}

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

/**
 * React Router's package points every bundler at its development build, warnings on
 * (remix-run/react-router#14102): in the app's first screen that is ≈ 10 ms of main thread at
 * 4× CPU. The build takes the package's production build instead: the same code with them off.
 */
function reactRouterProduction(): Plugin {
  const dir = fileURLToPath(
    new URL('./node_modules/react-router/dist/production/', import.meta.url),
  );
  const files: Record<string, string> = {
    'react-router': `${dir}index.mjs`,
    'react-router/dom': `${dir}dom-export.mjs`,
  };
  return {
    name: 'kiraa:react-router-production',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      const missing = Object.values(files).filter((file) => !existsSync(file));
      if (missing.length)
        this.error(`React Router's production build is gone: ${missing.join(', ')}`);
    },
    resolveId(source) {
      return files[source] ?? null;
    },
  };
}

// The app is a static build; the API it talks to is chosen at build time with
// VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY (see docs/deployment.md).
export default defineConfig({
  resolve: { alias },
  plugins: [
    reactRouterProduction(),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    tailwindcss(),
    apiHints(),
    // The first screen's markup in index.html, rendered in Node by the app's own components
    // (with the plugins they need there).
    firstScreen({
      locales: linguiConfig.locales,
      defaultLocale: linguiConfig.sourceLocale ?? 'fr',
      alias,
      plugins: () => [react(), babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui()],
    }),
    routePreload({
      routesSource: () => readFileSync(new URL('./src/app/routes.tsx', import.meta.url), 'utf8'),
      locales: linguiConfig.locales,
      defaultLocale: linguiConfig.sourceLocale ?? 'fr',
    }),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webp,woff2,webmanifest}'],
        // Car pictures are cached at runtime; the manifest screenshots are for install UIs only;
        // the HEIC decoder (3 MB) is cached by the worker the first time it is used (src/sw.ts).
        globIgnores: ['cars/**', 'screenshots/**', 'assets/heic-to-*.js'],
        // The worker shows pushes in the bell's words: Lingui's macro and catalogs (src/sw.ts).
        buildPlugins: {
          vite: [babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui()],
        },
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically (React, the router, Lingui, the shell's own
          // modules) in one chunk: two requests before the first screen instead of twenty small
          // ones, each a round trip on a phone's network (docs/pwa.md, "The first screen's weight").
          // A group takes its modules and their imports, first group first (array order).
          groups: [
            { name: 'shell', tags: ['$initial'] },
            // The search (dates, filters, availability): the home page's first screen needs it
            // without the device's data.
            {
              name: 'search',
              test: modules(
                'src/features/catalogue/filters.ts',
                'src/features/catalogue/rental-dates.tsx',
                'src/domain/availability.ts',
              ),
            },
            // The device's data (Dexie, its tables, the network state, the periodic loop, the API's
            // address): every screen that reads IndexedDB needs all of it, so one request.
            {
              name: 'data',
              test: anyOf(
                packages('dexie', 'dexie-react-hooks'),
                modules(
                  'src/infra/db.ts',
                  'src/infra/network.ts',
                  'src/infra/periodic.ts',
                  'src/infra/api-config.ts',
                ),
              ),
            },
            // What the catalogue's screens share (its sync and queries, the car card and picture,
            // prices, stars): /cars loads it with its page instead of as eight small chunks.
            {
              name: 'catalogue',
              test: modules(
                'src/sync/catalogue-sync.ts',
                'src/sync/sync-scheduler.ts',
                'src/features/catalogue/car-card.tsx',
                'src/features/catalogue/stars.tsx',
                'src/features/catalogue/catalogue-unavailable.tsx',
                'src/features/catalogue/catalogue-api.ts',
                'src/features/catalogue/labels.ts',
                'src/ui/car-picture.tsx',
                'src/domain/money.ts',
              ),
            },
            // Validation (zod): the forms and the outbox share it.
            { name: 'zod', test: packages('zod') },
            // The limits (src/domain/limits.ts): the schemas check them and the messages state
            // them, so screens without a form (/staff/team) read them too. In the outbox's chunk
            // every sign-in screen downloaded the whole outbox (4.5 KB); in zod's, /staff/team
            // downloaded zod (8.9 KB).
            { name: 'limits', test: modules('src/domain/limits.ts') },
            // The outbox (src/sync/outbox/): the booking screens and My bookings load it whole.
            { name: 'outbox', test: modules('src/sync/outbox/') },
          ],
        },
      },
    },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
