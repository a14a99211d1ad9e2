/**
 * The backend this build talks to (api-settings.ts). A module of its own, without supabase-js,
 * so code on the first screen's path (the catalogue's download) can call the API without loading
 * the client library.
 */
import { apiSettings, MISSING_ANON_KEY } from '@/infra/api-settings';

const settings = apiSettings(import.meta.env);

export const SUPABASE_URL = settings.url;
if (!settings.anonKey && import.meta.env.PROD) {
  console.error('VITE_SUPABASE_ANON_KEY is not set: the app cannot reach its backend.');
}
export const SUPABASE_ANON_KEY = settings.anonKey ?? MISSING_ANON_KEY;
