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
 * Webhooks and schedules call with the function-call secret (Vault's `function_call_secret`, the
 * function's FUNCTION_CALL_SECRET): a narrow secret that only calls these functions, since pg_net
 * keeps queued requests' headers where a hosted project lets PUBLIC read them. An operator may
 * also call with the service-role key. Anyone else, even with a valid user token, is refused: the
 * functions check here, not the platform (`verify_jwt = false`: it refuses non-JWT keys).
 */
export function isServiceCall(req: Request): boolean {
  const token = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (token === '') return false;
  const callSecret = Deno.env.get('FUNCTION_CALL_SECRET') ?? '';
  if (callSecret.length >= 32 && safeEqual(token, callSecret)) return true;
  return safeEqual(token, env('SUPABASE_SERVICE_ROLE_KEY'));
}

export function refuseUnlessService(req: Request): Response | null {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405, { allow: 'POST' });
  if (!isServiceCall(req)) return json({ error: 'service_role_required' }, 403);
  return null;
}
