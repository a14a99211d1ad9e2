/** Calls the project's database functions through PostgREST, as the service role. */
import { env } from './http.ts';

export class RpcError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  const res = await fetch(`${env('SUPABASE_URL')}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  if (!res.ok) {
    let code = String(res.status);
    let message = text;
    try {
      const error = JSON.parse(text) as { code?: string; message?: string };
      code = error.code ?? code;
      message = error.message ?? message;
    } catch {
      // Not PostgREST's JSON: keep the text.
    }
    throw new RpcError(res.status, code, `${name}: ${message}`);
  }
  return (text ? JSON.parse(text) : null) as T;
}

/** The Storage API's address of an object (`bucket/folder/file`, each segment encoded). */
export function objectUrl(route: string, bucket: string, name: string): string {
  const path = [bucket, ...name.split('/')].map(encodeURIComponent).join('/');
  return `${env('SUPABASE_URL')}/storage/v1/${route}/${path}`;
}

export function serviceHeaders(): Record<string, string> {
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  return { apikey: key, authorization: `Bearer ${key}` };
}
