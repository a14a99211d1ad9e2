// A Lingui catalog imported by a Node-side test, compiled by the Lingui Vite plugin as in the app
// (src/vite-env.d.ts declares the same for src/).
declare module '*.po' {
  import type { Messages } from '@lingui/core';

  export const messages: Messages;
}
