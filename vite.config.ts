import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

import linguiConfig from './lingui.config.ts';
import { routePreload } from './scripts/route-preload.ts';
import { apiSettings, MISSING_ANON_KEY } from './src/infra/api-settings.ts';
import { prefetchScript } from './src/sync/catalogue-prefetch.ts';

/**
 * What index.html gets from the build's API settings (VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY):
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
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'preconnect', href: new URL(api.url).origin, crossorigin: '' },
        injectTo: 'head',
      },
      {
        tag: 'script',
        children: prefetchScript(api.url, api.anonKey ?? MISSING_ANON_KEY),
        injectTo: 'head',
      },
    ],
  };
}

// The app is a static build; the API it talks to is chosen at build time with
// VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY (see docs/deployment.md).
export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  plugins: [
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    tailwindcss(),
    apiHints(),
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
              test: /\/src\/features\/catalogue\/(filters|rental-dates)\.tsx?$|\/src\/domain\/availability\.ts$/,
            },
            // The device's data (Dexie, its tables, the network state, the API's address): every
            // screen that reads IndexedDB needs all of it, so one request instead of five.
            {
              name: 'data',
              test: /\/node_modules\/dexie(-react-hooks)?\/|\/src\/infra\/(db|network|api-config)\.ts$/,
            },
            // What the catalogue's screens share (its sync and queries, the car card and picture,
            // prices, stars): /cars loads it with its page instead of as eight small chunks.
            {
              name: 'catalogue',
              test: /\/src\/sync\/(catalogue-sync|sync-scheduler)\.ts$|\/src\/features\/catalogue\/(car-card|stars|catalogue-unavailable|queries|labels)\.tsx?$|\/src\/ui\/car-picture\.tsx$|\/src\/domain\/money\.ts$/,
            },
          ],
        },
      },
    },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
