/** Small HTTP helpers of the Edge Functions. */

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A required environment variable (a platform variable or a secret). */
export function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set (supabase secrets set, docs/operations.md).`);
  return value;
}

/** Compares two strings in constant time (secrets, signatures). */
export function safeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.length !== right.length) return false;
  let diff = 0;
  for (let i = 0; i < left.length; i++) diff |= left[i]! ^ right[i]!;
  return diff === 0;
}

/**
 * Webhooks and schedules call with the service-role key (Vault's `service_role_key`): anyone
 * else, even with a valid user token, is refused.
 */
export function isServiceCall(req: Request): boolean {
  const token = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  return token !== '' && safeEqual(token, env('SUPABASE_SERVICE_ROLE_KEY'));
}

export function refuseUnlessService(req: Request): Response | null {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405, { allow: 'POST' });
  if (!isServiceCall(req)) return json({ error: 'service_role_required' }, 403);
  return null;
}
