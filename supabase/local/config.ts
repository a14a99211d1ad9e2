/**
 * Fixed local values of the stack: ports, development keys and paths.
 *
 * The JWT secret and the two API keys are the well-known development values of the Supabase CLI
 * (`supabase start`): HS256, `iss: 'supabase-demo'`, far-future `exp`. They are public on purpose
 * and must never be used for a real project; a deployment takes its values from the environment
 * (`JWT_SECRET`, `ANON_KEY`, `SERVICE_ROLE_KEY`, as in Supabase's self-hosting `.env`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type WebPush from 'web-push';

import { signJwt } from './jwt.ts';

const require = createRequire(import.meta.url);

/** The repository root (this file lives in `supabase/local/`). */
export const ROOT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The app's ports; the API's and the database's come from supabase/config.toml ([api], [db]). */
export const DEFAULT_PORTS = {
  /** The built app (`npm start`). */
  app: 4173,
  /** Vite's dev server (`npm run dev`). */
  dev: 5173,
  /** The Supabase-compatible API gateway. */
  api: 54321,
  /** PGlite over the Postgres wire protocol. */
  db: 54322,
} as const;

/** The Supabase CLI's local JWT secret. */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** Far-future expiry of the development API keys (2032-11-11, as in the Supabase CLI). */
const DEV_KEY_EXP = 1983812996;

/** An API key: a JWT that carries only a role, signed with the project's secret. */
export function apiKeyFor(role: 'anon' | 'service_role', jwtSecret: string): string {
  return signJwt({ iss: 'supabase-demo', role, exp: DEV_KEY_EXP }, jwtSecret);
}

export type Keys = { jwtSecret: string; anonKey: string; serviceRoleKey: string };

/**
 * The JWT secret and API keys: the fixed development values unless the environment names others.
 * When only `JWT_SECRET` is set, the keys are signed with it.
 */
export function resolveKeys(env: NodeJS.ProcessEnv = process.env): Keys {
  const jwtSecret = env.JWT_SECRET || DEV_JWT_SECRET;
  if (jwtSecret.length < 32) {
    throw new Error('JWT_SECRET must be at least 32 characters long.');
  }
  return {
    jwtSecret,
    anonKey: env.ANON_KEY || apiKeyFor('anon', jwtSecret),
    serviceRoleKey: env.SERVICE_ROLE_KEY || apiKeyFor('service_role', jwtSecret),
  };
}

/** Where `npm start` keeps its state (git-ignored). */
export const DEFAULT_DATA_DIR = resolve(ROOT_DIR, '.kiraa');

export const PATHS = {
  config: resolve(ROOT_DIR, 'supabase/config.toml'),
  bootstrap: resolve(ROOT_DIR, 'supabase/local/postgres/bootstrap.sql'),
  extensions: resolve(ROOT_DIR, 'supabase/local/postgres/extensions.sql'),
  functions: resolve(ROOT_DIR, 'supabase/functions'),
  functionsEnv: resolve(ROOT_DIR, 'supabase/functions/.env'),
  denoConfig: resolve(ROOT_DIR, 'supabase/functions/deno.json'),
  /** Deno's cache of compiled modules (DENO_DIR). */
  denoCache: resolve(ROOT_DIR, 'node_modules/.cache/kiraa/deno'),
  migrations: resolve(ROOT_DIR, 'supabase/migrations'),
  seed: resolve(ROOT_DIR, 'supabase/seed.sql'),
  dist: resolve(ROOT_DIR, 'dist'),
  envLocal: resolve(ROOT_DIR, '.env.local'),
} as const;

/** What lives inside a data directory. */
export function dataPaths(dataDir: string) {
  return {
    db: resolve(dataDir, 'db'),
    storage: resolve(dataDir, 'storage'),
    mail: resolve(dataDir, 'mail.json'),
    /** The local push service's subscriptions and received messages. */
    push: resolve(dataDir, 'push.json'),
    postgrestPid: resolve(dataDir, 'postgrest.pid'),
    /** The ES256 signing keys (supabase/local/signing-keys.ts; `npm run keys`). */
    signingKeys: resolve(dataDir, 'signing-keys.json'),
    /** What PostgREST reads as its `jwt-secret` (`@file`): the JWKS and the legacy secret. */
    postgrestJwks: resolve(dataDir, 'postgrest-jwks.json'),
    /** The pid of the stack that uses this directory. */
    lock: resolve(dataDir, 'stack.pid'),
  };
}

/**
 * Local secrets of the Edge Functions (`supabase secrets set` gives a hosted project its own):
 * the dev mailbox's API key is derived from the JWT secret; the Send Email hook's secret is drawn
 * for each stack (a fixed value in the repository would let anyone sign hook calls to a stack
 * reachable on the network), in the Standard Webhooks format GoTrue uses (`v1,whsec_<base64>`).
 */
export function newSendEmailHookSecret(): string {
  return `v1,whsec_${randomBytes(32).toString('base64')}`;
}

export function devMailApiKey(jwtSecret: string): string {
  return `re_local_${createHmac('sha256', jwtSecret).update('kiraa-mail-api').digest('hex').slice(0, 32)}`;
}

/**
 * The VAPID key pair (RFC 8292) the push-send function signs with and the app subscribes with
 * (`VITE_VAPID_PUBLIC_KEY`). Locally: `VAPID_PUBLIC_KEY` / `VAPID_PRIVATE_KEY` from the
 * environment (npm start reads them back from .env.local, so subscriptions survive restarts),
 * else a new pair. The subject is a contact for the push services: Apple refuses a `localhost`
 * one, so a hosted project sets a real `mailto:` or `https:` (docs/deployment.md).
 */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

export const DEV_VAPID_SUBJECT = 'mailto:dev@kiraa.dz';

export function resolveVapidKeys(env: NodeJS.ProcessEnv = process.env): VapidKeys {
  const subject = env.VAPID_SUBJECT || DEV_VAPID_SUBJECT;
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const { generateVAPIDKeys } = require('web-push') as typeof WebPush;
  return { ...generateVAPIDKeys(), subject };
}

/** The demo accounts created by supabase/seed.sql (local only, see docs/decisions.md). */
export const DEMO_ACCOUNTS = [
  { role: 'customer', email: 'client@kiraa.dz', password: 'Kiraa2026!' },
  {
    role: 'staff, TOTP secret KIRAADEMOSTAFFTOTPKIRAADEMOSTAFF: `npm run totp` prints the code',
    email: 'admin@kiraa.dz',
    password: 'Kiraa2026!',
  },
] as const;

/** Reads a port from the environment (`0` means any free port). */
export function portFromEnv(name: string, fallback: number, env = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got "${raw}".`);
  }
  return port;
}
