/**
 * A guest lookup an airport can use (docs/decisions.md, "Guest lookup"): wrong contacts are
 * counted per reference (5 in 15 minutes, then `rate_limited` for that reference only, from any
 * address), failed lookups per client address get a budget sized for a hall of travellers (150 in
 * 15 minutes), and lookups that find their booking cost nothing. Each limit answers the coded
 * error shape of the other limits: `detail` JSON with `limit`, `retry_after` and `scope`.
 */
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  algiersAt,
  book,
  expectCode,
  newCar,
  newReference,
  randomIp,
  visitor,
  type Booking,
} from '../support/fixtures.ts';

type LimitDetail = { limit: number; retry_after: string; scope: string };

function detail(error: PostgrestError | null): LimitDetail {
  return JSON.parse(error?.details ?? 'null') as LimitDetail;
}

function lookup(client: SupabaseClient, reference: string, contact: string) {
  return client.rpc('find_guest_booking', { reference, contact });
}

let car: string;

beforeAll(async () => {
  car = (await newCar()).id;
});

describe('find_guest_booking behind one address (an airport hall)', () => {
  it('lets 50 travellers behind one address each find their booking, one typo each included', async () => {
    // Each booked from their own phone's network; all look up from the airport's wifi.
    const bookings: Booking[] = [];
    for (let i = 0; i < 50; i++) {
      bookings.push(
        await book(
          visitor(),
          car,
          { start_at: algiersAt(100 + i, 10), end_at: algiersAt(100 + i, 12) },
          false,
          { confirm: i % 2 === 0 },
        ),
      );
    }
    const hall = randomIp();
    for (const b of bookings) {
      const typo = await lookup(visitor(hall), b.reference, `x${b.guest_email!}`);
      expect(typo.error).toBeNull();
      expect(typo.data).toBeNull();
      const found = await lookup(visitor(hall), b.reference, b.guest_email!);
      expect(found.error).toBeNull();
      expect((found.data as Booking | null)?.id).toBe(b.id);
    }
  });
});

describe('an attacker', () => {
  it('guessing the contact of one reference is stopped after 5 wrong contacts, from any address, for that reference only', async () => {
    const target = await book(visitor(), car, {
      start_at: algiersAt(160, 10),
      end_at: algiersAt(160, 12),
    });
    const other = await book(visitor(), car, {
      start_at: algiersAt(161, 10),
      end_at: algiersAt(161, 12),
    });
    for (let i = 0; i < 5; i++) {
      // A botnet: a fresh address for every guess.
      const { data, error } = await lookup(visitor(), target.reference, `+21366100000${i}`);
      expect(error).toBeNull();
      expect(data).toBeNull();
    }
    const attacker = visitor();
    const stopped = await lookup(attacker, target.reference, '+213661000009');
    expectCode(stopped.error, 'rate_limited');
    const d = detail(stopped.error);
    expect(d.limit).toBe(5);
    expect(d.scope).toBe('reference');
    expect(Date.parse(d.retry_after)).toBeGreaterThan(Date.now() + 13 * 60_000);
    expect(Date.parse(d.retry_after)).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 5_000);
    // The reference is typed any way: still the same reference.
    expectCode(
      (await lookup(visitor(), target.reference.toLowerCase().replace(/-/g, ' '), 'a@b.dz')).error,
      'rate_limited',
    );
    // Locked means locked: even the right contact waits (else the lock would tell right from wrong).
    expectCode(
      (await lookup(visitor(), target.reference, target.guest_email!)).error,
      'rate_limited',
    );
    // Another reference, from the attacker's address too, is not affected.
    const found = await lookup(attacker, other.reference, other.guest_email!);
    expect((found.data as Booking | null)?.id).toBe(other.id);
  });

  it('guessing references from one address is slowed to 150 failed lookups per 15 minutes; another address is not affected', async () => {
    const ip = randomIp();
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => lookup(visitor(ip), newReference(), 'guess@example.com')),
      );
      for (const a of answers) expect(a.error).toBeNull();
    }
    const slowed = await lookup(visitor(ip), newReference(), 'guess@example.com');
    expectCode(slowed.error, 'rate_limited');
    expect(detail(slowed.error)).toMatchObject({ limit: 150, scope: 'address' });
    expect(Date.parse(detail(slowed.error).retry_after)).toBeGreaterThan(Date.now());
    const elsewhere = await lookup(visitor(), newReference(), 'guess@example.com');
    expect(elsewhere.error).toBeNull();
  });
});
