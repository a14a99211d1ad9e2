import { fileURLToPath, URL } from 'node:url';

import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
