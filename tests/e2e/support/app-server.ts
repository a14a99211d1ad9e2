/**
 * Builds the app against a given API and serves the build on a free port, the way a CDN would
 * (the stack's own static handler: SPA fallback, caching headers, compression).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

import { createStaticHandler } from '../../../supabase/local/gateway/static-server.ts';

const root = resolve(import.meta.dirname, '../../..');

/** `vite build` into `outDir` with the API's URL and anon key baked in. */
export async function buildApp(options: {
  outDir: string;
  apiUrl: string;
  anonKey: string;
  /** The stack's VAPID public key (what the app subscribes to push with). */
  vapidPublicKey?: string;
}): Promise<void> {
  const started = Date.now();
  const output: string[] = [];
  const child = spawn(
    process.execPath,
    [
      resolve(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      options.outDir,
      '--emptyOutDir',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        VITE_SUPABASE_URL: options.apiUrl,
        VITE_SUPABASE_ANON_KEY: options.anonKey,
        VITE_VAPID_PUBLIC_KEY: options.vapidPublicKey ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) {
    throw new Error(`vite build failed (exit ${code}):\n${output.join('').slice(-4000)}`);
  }
  console.info(`[e2e] app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export type AppServer = { url: string; port: number; close: () => Promise<void> };

/** Serves `dir` on 127.0.0.1 at a free port (or `port`), as http://localhost:<port>. */
export async function serveApp(dir: string, port = 0): Promise<AppServer> {
  const server: Server = createServer(createStaticHandler(dir));
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ready());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
