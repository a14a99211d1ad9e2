/**
 * Playwright's global setup: the real local stack (PGlite, or PostgreSQL with
 * KIRAA_TEST_DB=postgres) on free ports, the app built against it and served on a free port.
 * The URLs reach the specs through environment variables (see env.ts) and
 * tests/.tmp/e2e-env.json. The returned function is the global teardown.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import pg from 'pg';

import { startTestStack } from '../../support/stack.ts';
import { buildApp, serveApp } from './app-server.ts';
import { writeE2eEnv, type E2eEnv } from './env.ts';

/**
 * The links in guest mails lead to `settings.site_url` (the seed's is the local app on :4173):
 * here, the app this run serves, so a spec can open them.
 */
async function useSiteUrl(dbUrl: string, siteUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('update public.settings set site_url = $1 where id = 1', [siteUrl]);
  } finally {
    await client.end();
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const outDir = mkdtempSync(join(tmpdir(), 'kiraa-e2e-app-'));
  // The app's port comes first: the stack needs it as its site URL (links in mails).
  const app = await serveApp(outDir);
  let stack: Awaited<ReturnType<typeof startTestStack>> | null = null;
  try {
    stack = await startTestStack({ appOrigins: [app.url], siteUrl: app.url });
    await useSiteUrl(stack.dbUrl, app.url);
    await buildApp({
      outDir,
      apiUrl: stack.apiUrl,
      anonKey: stack.anonKey,
      vapidPublicKey: stack.vapid.publicKey,
    });
  } catch (error) {
    await app.close();
    await stack?.stop();
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }

  const env: E2eEnv = {
    appUrl: app.url,
    appDir: outDir,
    apiUrl: stack.apiUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    dbUrl: stack.dbUrl,
    mailboxUrl: stack.mailboxUrl,
    pushUrl: stack.pushUrl,
    vapidPublicKey: stack.vapid.publicKey,
  };
  writeE2eEnv(env);
  const tmp = resolve(import.meta.dirname, '../../.tmp');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'e2e-env.json'), `${JSON.stringify(env, null, 2)}\n`);
  console.info(`[e2e] app ${app.url} · api ${stack.apiUrl} (${stack.engine})`);

  const running = stack;
  return async () => {
    await app.close();
    await running.stop();
    rmSync(outDir, { recursive: true, force: true });
  };
}
