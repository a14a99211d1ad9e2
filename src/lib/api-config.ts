/**
 * Where the backend is and the public key to reach it, chosen at build time (VITE_SUPABASE_URL,
 * VITE_SUPABASE_ANON_KEY). A module of its own, without supabase-js, so code on the first
 * screen's path (the catalogue's download) can call the API without loading the client library.
 */

const DEFAULT_LOCAL_URL = 'http://localhost:54321';

function env(name: 'VITE_SUPABASE_URL' | 'VITE_SUPABASE_ANON_KEY'): string | undefined {
  const value = (import.meta.env as Partial<Record<string, string>>)[name];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

export const SUPABASE_URL = (env('VITE_SUPABASE_URL') ?? DEFAULT_LOCAL_URL).replace(/\/+$/, '');
const ANON_KEY = env('VITE_SUPABASE_ANON_KEY');
if (!ANON_KEY && import.meta.env.PROD) {
  console.error('VITE_SUPABASE_ANON_KEY is not set: the app cannot reach its backend.');
}
export const SUPABASE_ANON_KEY = ANON_KEY ?? 'anon-key-not-configured';

/** Every request gives up after this long (SPEC §9). */
export const REQUEST_TIMEOUT_MS = 60_000;
