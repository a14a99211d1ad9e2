/**
 * A guest lookup an airport can use (docs/decisions.md, "Guest lookup"): wrong contacts are
 * counted per reference and client address (5 in 15 minutes, then `rate_limited` for that
 * reference from that address; 30 from every address together), per client address and contact
 * (20 references tried with one contact), and per client address as a flood ceiling (1000); a
 * lookup that finds its booking costs nothing. So someone who knows a reference cannot lock its
 * guest out, and one person at an airport cannot lock out the hall. Each limit answers the coded
 * error shape of the other limits: `detail` JSON with `limit`, `retry_after` and `scope`.
 */
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  adminClient,
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
  it('guessing the contact of a known reference is stopped after 5 wrong contacts from one address; the guest elsewhere still finds it', async () => {
    const target = await book(visitor(), car, {
      start_at: algiersAt(160, 10),
      end_at: algiersAt(160, 12),
    });
    const other = await book(visitor(), car, {
      start_at: algiersAt(161, 10),
      end_at: algiersAt(161, 12),
    });
    const attacker = visitor();
    for (let i = 0; i < 5; i++) {
      const { data, error } = await lookup(attacker, target.reference, `+21366100000${i}`);
      expect(error).toBeNull();
      expect(data).toBeNull();
    }
    const stopped = await lookup(attacker, target.reference, '+213661000009');
    expectCode(stopped.error, 'rate_limited');
    const d = detail(stopped.error);
    expect(d.limit).toBe(5);
    expect(d.scope).toBe('reference');
    expect(Date.parse(d.retry_after)).toBeGreaterThan(Date.now() + 13 * 60_000);
    expect(Date.parse(d.retry_after)).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 5_000);
    // The reference is typed any way: still the same reference.
    expectCode(
      (await lookup(attacker, target.reference.toLowerCase().replace(/-/g, ' '), 'a@b.dz')).error,
      'rate_limited',
    );
    // Locked means locked for that address: even the right contact waits there.
    expectCode(
      (await lookup(attacker, target.reference, target.guest_email!)).error,
      'rate_limited',
    );
    // The guest, from their own network, is not affected; nor is another reference.
    const mine = await lookup(visitor(), target.reference, target.guest_email!);
    expect((mine.data as Booking | null)?.id).toBe(target.id);
    const found = await lookup(attacker, other.reference, other.guest_email!);
    expect((found.data as Booking | null)?.id).toBe(other.id);
  });

  it('a botnet guessing one reference is stopped at 30 wrong contacts from every address together', async () => {
    const target = await book(visitor(), car, {
      start_at: algiersAt(162, 10),
      end_at: algiersAt(162, 12),
    });
    for (let node = 0; node < 6; node++) {
      const bot = visitor();
      for (let i = 0; i < 5; i++) await lookup(bot, target.reference, `+2136610${node}000${i}`);
    }
    const stopped = await lookup(visitor(), target.reference, target.guest_email!);
    expectCode(stopped.error, 'rate_limited');
    expect(detail(stopped.error)).toMatchObject({ limit: 5, scope: 'reference' });
  });

  it('trying references for one contact is stopped at 20 from one address; other contacts behind it are not', async () => {
    const ip = randomIp();
    for (let i = 0; i < 20; i++) {
      const { error } = await lookup(visitor(ip), newReference(), 'victim@example.com');
      expect(error).toBeNull();
    }
    const slowed = await lookup(visitor(ip), newReference(), 'VICTIM@example.com');
    expectCode(slowed.error, 'rate_limited');
    expect(detail(slowed.error)).toMatchObject({ limit: 20, scope: 'contact' });
    const honest = await book(visitor(), car, {
      start_at: algiersAt(163, 10),
      end_at: algiersAt(163, 12),
    });
    const found = await lookup(visitor(ip), honest.reference, honest.guest_email!);
    expect((found.data as Booking | null)?.id).toBe(honest.id);
  });

  it('a flood of failed lookups from one address is stopped at the settings’ ceiling; another address is not affected', async () => {
    const admin = await adminClient();
    expect(
      (await admin.from('settings').update({ lookup_failures_per_address: 40 }).eq('id', 1)).error,
    ).toBeNull();
    try {
      const ip = randomIp();
      for (let batch = 0; batch < 4; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            lookup(visitor(ip), newReference(), `guess-${batch}-${i}@example.com`),
          ),
        );
        for (const a of answers) expect(a.error).toBeNull();
      }
      const slowed = await lookup(visitor(ip), newReference(), 'another@example.com');
      expectCode(slowed.error, 'rate_limited');
      expect(detail(slowed.error)).toMatchObject({ limit: 40, scope: 'address' });
      expect(Date.parse(detail(slowed.error).retry_after)).toBeGreaterThan(Date.now());
      const elsewhere = await lookup(visitor(), newReference(), 'guess@example.com');
      expect(elsewhere.error).toBeNull();
    } finally {
      await admin.from('settings').update({ lookup_failures_per_address: 1000 }).eq('id', 1);
    }
  });
});
