/**
 * Where the backend is and the public key to reach it: VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY, read the same way by the app (import.meta.env, api-config.ts) and by the
 * build (Vite's loadEnv, vite.config.ts: index.html's preconnect and first-visit prefetch), so the
 * page and the app always ask the same URLs. No browser globals or import.meta here.
 */

/** The local stack's gateway (`npm start`), when VITE_SUPABASE_URL is not set. */
const DEFAULT_API_URL = 'http://localhost:54321';
/** Stands in for a missing VITE_SUPABASE_ANON_KEY: every request is then refused. */
export const MISSING_ANON_KEY = 'anon-key-not-configured';

/** Every request gives up after this long (docs/product.md §9). */
export const REQUEST_TIMEOUT_MS = 60_000;

export type ApiSettings = {
  /** Without a trailing slash. */
  url: string;
  /** Undefined when not configured. */
  anonKey: string | undefined;
};

export function apiSettings(env: Record<string, unknown>): ApiSettings {
  const read = (name: string) => {
    const value = env[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return {
    url: (read('VITE_SUPABASE_URL') ?? DEFAULT_API_URL).replace(/\/+$/, ''),
    anonKey: read('VITE_SUPABASE_ANON_KEY'),
  };
}
