/**
 * invite-staff: an admin signed in at aal2 invites a new staff member by e-mail (the staff page
 * /admin/staff). The caller's own token must make `public.is_admin()` true (admin role and a TOTP
 * second factor, checked by the database, not here); the function then calls GoTrue's
 * POST /invite with the service-role key it holds (never the browser) and grants the invitee the
 * admin role in `public.profiles` (copied into `app_metadata.role` by the database). The invitee
 * confirms with the mailed code or link, sets a password and enrols TOTP before any staff access.
 * docs/auth.md, "Staff invitations"; docs/functions.md.
 */
import { env, json } from '../_shared/http.ts';
import { serviceHeaders } from '../_shared/rest.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, apikey, content-type, x-client-info',
  'access-control-allow-methods': 'POST, OPTIONS',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether the caller's token makes `public.is_admin()` true (admin at aal2). */
async function callerIsAdmin(authorization: string): Promise<boolean> {
  const res = await fetch(`${env('SUPABASE_URL')}/rest/v1/rpc/is_admin`, {
    method: 'POST',
    headers: {
      apikey: env('SUPABASE_ANON_KEY'),
      authorization,
      'content-type': 'application/json',
    },
    body: '{}',
  });
  const text = await res.text();
  return res.ok && text.trim() === 'true';
}

/** The invitee's profile, checked by the Before User Created hook as a sign-up's. */
const PROFILE_FIELDS = ['name', 'phone', 'age', 'address', 'locale'];

function profileOf(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null) return {};
  const source = raw as Record<string, unknown>;
  return Object.fromEntries(PROFILE_FIELDS.filter((k) => k in source).map((k) => [k, source[k]]));
}

async function invite(email: string, data: Record<string, unknown>, redirectTo: string | null) {
  const query = redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : '';
  const res = await fetch(`${env('SUPABASE_URL')}/auth/v1/invite${query}`, {
    method: 'POST',
    headers: { ...serviceHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, data }),
  });
  const body = (await res.json().catch(() => ({}))) as {
    id?: string;
    error_code?: string;
    msg?: string;
  };
  return { status: res.status, body };
}

/**
 * Whether an account already holds the address. Such an address is refused rather than invited:
 * an unconfirmed account may carry a password its creator chose, which must not become staff.
 */
async function addressTaken(email: string): Promise<boolean> {
  const query = new URLSearchParams({ filter: email, per_page: '1000' });
  const res = await fetch(`${env('SUPABASE_URL')}/auth/v1/admin/users?${query.toString()}`, {
    headers: serviceHeaders(),
  });
  if (!res.ok) throw new Error(`admin/users answered ${res.status}`);
  const { users } = (await res.json()) as { users: { email?: string }[] };
  return users.some((u) => (u.email ?? '').toLowerCase() === email);
}

async function grantAdmin(userId: string): Promise<boolean> {
  const res = await fetch(
    `${env('SUPABASE_URL')}/rest/v1/profiles?id=eq.${encodeURIComponent(userId)}`,
    {
      method: 'PATCH',
      headers: {
        ...serviceHeaders(),
        'content-type': 'application/json',
        prefer: 'return=minimal',
      },
      body: JSON.stringify({ role: 'admin' }),
    },
  );
  await res.body?.cancel();
  return res.ok;
}

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405, CORS);
  const authorization = req.headers.get('authorization') ?? '';
  if (!/^Bearer .+/.test(authorization) || !(await callerIsAdmin(authorization))) {
    return json({ error: 'staff_aal2_required' }, 403, CORS);
  }
  const body = (await req.json().catch(() => null)) as {
    email?: unknown;
    redirect_to?: unknown;
    data?: unknown;
  } | null;
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (email.length > 254 || !EMAIL.test(email)) return json({ error: 'invalid_email' }, 400, CORS);
  const redirectTo = typeof body?.redirect_to === 'string' ? body.redirect_to : null;
  if (await addressTaken(email)) return json({ error: 'email_exists' }, 409, CORS);
  const invited = await invite(email, profileOf(body?.data), redirectTo);
  if (invited.status === 422 && invited.body.error_code === 'email_exists') {
    return json({ error: 'email_exists' }, 409, CORS);
  }
  if (invited.status === 422) {
    // The hook's `<field>: <reason>` (docs/auth.md), which the staff page translates.
    return json({ error: 'invalid_profile', message: invited.body.msg ?? '' }, 422, CORS);
  }
  if (invited.status !== 200 || !invited.body.id) {
    console.error(
      `invite-staff: invite answered ${invited.status} ${invited.body.error_code ?? ''}`,
    );
    return json({ error: 'invite_failed' }, 502, CORS);
  }
  if (!(await grantAdmin(invited.body.id))) return json({ error: 'invite_failed' }, 502, CORS);
  console.info(`invite-staff: invited ${invited.body.id}`);
  return json({ user_id: invited.body.id }, 200, CORS);
});
