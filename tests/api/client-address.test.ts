/**
 * The client address the database computes (internal.client_address: `cf-connecting-ip`, else the
 * rightmost `x-forwarded-for` entry) and the guest lookup's fallback when a request carries none
 * (supabase/migrations/20261126300500_client_address_fallback.sql, docs/decisions.md "Client
 * address"). Requests without an address are sent to PostgREST itself, with no gateway in front.
 */
import { describe, expect, it } from 'vitest';

import { testStack } from '../support/clients.ts';
import { book, newCar, randomIp, visitor } from '../support/fixtures.ts';

/** A POST to PostgREST itself as the anon role, with only the headers given. */
async function direct(
  fn: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const { postgrestUrl, anonKey } = testStack();
  const res = await fetch(`${postgrestUrl}/rpc/${fn}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${anonKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('request_client_address', () => {
  it('answers the address the limits count by: the forwarded one, an IPv6 client by its /64', async () => {
    const ip = randomIp();
    const { data, error } = await visitor(ip).rpc('request_client_address');
    expect(error).toBeNull();
    expect(data).toEqual({ address: ip, key: ip });
    expect(
      (await direct('request_client_address', {}, { 'x-forwarded-for': '2001:db8:1:2:3::9' })).body,
    ).toEqual({ address: '2001:db8:1:2:3::9', key: '2001:db8:1:2::/64' });
    expect(
      (
        await direct(
          'request_client_address',
          {},
          { 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '203.0.113.1, 203.0.113.2' },
        )
      ).body,
    ).toEqual({ address: '198.51.100.7', key: '198.51.100.7' });
  });

  it('answers nulls when the request carries no usable address', async () => {
    expect((await direct('request_client_address', {})).body).toEqual({
      address: null,
      key: null,
    });
    expect(
      (await direct('request_client_address', {}, { 'x-forwarded-for': 'not-an-address' })).body,
    ).toEqual({ address: null, key: null });
  });
});

describe('find_guest_booking without a client address', () => {
  it('lets nobody lock a reference for its guest with five wrong contacts: only the all-callers ceiling applies', async () => {
    const booking = await book(visitor(), (await newCar()).id);
    for (let i = 0; i < 8; i++) {
      const miss = await direct('find_guest_booking', {
        reference: booking.reference,
        contact: `+21366200000${i}`,
      });
      expect(miss, `wrong contact ${i + 1}`).toEqual({ status: 200, body: null });
    }
    const found = await direct('find_guest_booking', {
      reference: booking.reference,
      contact: booking.guest_email,
    });
    expect(found.status).toBe(200);
    expect((found.body as { id: string }).id).toBe(booking.id);
  });

  it('still holds a known address at 5 wrong contacts for one reference', async () => {
    const booking = await book(visitor(), (await newCar()).id);
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const miss = await direct(
        'find_guest_booking',
        { reference: booking.reference, contact: `+21366300000${i}` },
        { 'x-forwarded-for': ip },
      );
      expect(miss.status).toBe(200);
    }
    const locked = await direct(
      'find_guest_booking',
      { reference: booking.reference, contact: booking.guest_email },
      { 'x-forwarded-for': ip },
    );
    expect(locked.status).toBe(400);
    expect(locked.body).toMatchObject({ message: 'rate_limited' });
    expect(JSON.parse((locked.body as { details: string }).details)).toMatchObject({
      scope: 'reference',
      limit: 5,
    });
  });

  it('holds a flood on one reference from every caller together at 30 wrong contacts', async () => {
    const booking = await book(visitor(), (await newCar()).id);
    for (let i = 0; i < 30; i++) {
      const miss = await direct('find_guest_booking', {
        reference: booking.reference,
        contact: `+2136640000${String(i).padStart(2, '0')}`,
      });
      expect(miss.status, `wrong contact ${i + 1}`).toBe(200);
    }
    const locked = await direct('find_guest_booking', {
      reference: booking.reference,
      contact: booking.guest_email,
    });
    expect(locked.status).toBe(400);
    expect(JSON.parse((locked.body as { details: string }).details)).toMatchObject({
      scope: 'reference',
    });
  });
});
