import { fileURLToPath, URL } from 'node:url';

import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * `<link rel="preconnect">` to the API in index.html: the connection (DNS, TCP, TLS) is set up
 * while the app's code downloads, so the catalogue's first request does not pay for it. Anonymous
 * (`crossorigin`), like the app's fetch calls.
 */
function preconnectToApi(): Plugin {
  let origin = 'http://localhost:54321';
  return {
    name: 'kiraa-preconnect-api',
    configResolved(config) {
      const url = loadEnv(config.mode, config.envDir || process.cwd(), 'VITE_').VITE_SUPABASE_URL;
      if (url?.trim()) origin = new URL(url.trim()).origin;
    },
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'preconnect', href: origin, crossorigin: '' },
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
    preconnectToApi(),
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
          groups: [{ name: 'shell', tags: ['$initial'] }],
        },
      },
    },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
