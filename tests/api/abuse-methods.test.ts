/**
 * A function that writes runs only for POST, checked in SQL (authz.check_request, PostgREST's
 * pre-request hook), so it holds on hosted Supabase where nothing stands in front of PostgREST.
 * These tests call PostgREST directly, as a hosted project exposes it: a GET runs in a read-only
 * transaction, where a guessing function could not count a miss but would answer a hit.
 */
import { describe, expect, it } from 'vitest';

import { sql, testStack } from '../support/clients.ts';
import { book, newCar, visitor } from '../support/fixtures.ts';

/** A GET on PostgREST itself, as the anon role. */
function directGet(path: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
  const { postgrestUrl, anonKey } = testStack();
  return fetch(`${postgrestUrl}/${path}`, {
    method,
    headers: { authorization: `Bearer ${anonKey}`, 'x-forwarded-for': '198.51.100.20' },
  });
}

describe('functions that write need POST, on PostgREST itself', () => {
  it('refuses GET and HEAD on a guest lookup whose contact matches: no row, no oracle', async () => {
    const guest = visitor();
    const booking = await book(guest, (await newCar()).id);
    const query = `rpc/find_guest_booking?reference=${booking.reference}&contact=${encodeURIComponent(booking.guest_email!)}`;

    const hit = await directGet(query);
    expect(hit.status).toBe(405);
    expect(hit.headers.get('allow')).toBe('POST');
    const body = (await hit.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ message: 'method_not_allowed' });
    expect(JSON.stringify(body)).not.toContain(booking.guest_email!);
    expect((await directGet(query, 'HEAD')).status).toBe(405);

    // The same lookup with POST still answers the booking.
    const { data } = await guest.rpc('find_guest_booking', {
      reference: booking.reference,
      contact: booking.guest_email,
    });
    expect((data as { id: string } | null)?.id).toBe(booking.id);
  });

  it('refuses GET on every VOLATILE function the API roles may call, and allows it on reads', async () => {
    const writing = await sql<{ name: string; args: string }>(
      `select p.proname as name,
              coalesce(string_agg(a.name || '=x', '&'), '') as args
         from pg_proc p
         left join lateral unnest(p.proargnames) as a(name) on true
        where p.pronamespace = 'public'::regnamespace
          and p.provolatile = 'v' and p.prokind = 'f'
          and (has_function_privilege('anon', p.oid, 'execute')
               or has_function_privilege('authenticated', p.oid, 'execute'))
        group by p.oid, p.proname`,
    );
    // The public write API at least (a new RPC joins this list by itself).
    expect(writing.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'create_booking',
        'find_guest_booking',
        'confirm_guest_booking',
        'resend_guest_confirmation',
        'report_refused_booking',
        'cancel_booking',
        'submit_review',
        'staff_set_booking_status',
      ]),
    );
    for (const { name, args } of writing) {
      const res = await directGet(`rpc/${name}?${args}`);
      expect(res.status, `GET rpc/${name}`).toBe(405);
      expect(await res.json(), name).toMatchObject({ message: 'method_not_allowed' });
    }

    const read = await directGet(
      `rpc/car_busy_periods?from=${encodeURIComponent('2030-01-01T00:00:00Z')}&to=${encodeURIComponent('2030-01-02T00:00:00Z')}`,
    );
    expect(read.status).toBe(200);
    expect((await directGet('cars?select=id&limit=1')).status).toBe(200);
  });
});
