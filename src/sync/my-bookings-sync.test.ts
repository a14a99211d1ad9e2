import type { SupabaseClient } from '@supabase/supabase-js';
import type { Transaction } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { db } from '@/infra/db';
import {
  forgetRefusedReview,
  MY_REVIEWS_KEY,
  pullMyReviews,
  readMyReviews,
  reviewsByBooking,
  submitReview,
  type MyReview,
} from '@/sync/my-bookings-sync';

vi.mock('@/infra/supabase', () => ({ supabase: {} }));

/** A client whose `reviews` select answers `rows` (or an error), recording the user filter. */
function fakeClient(answer: { data: MyReview[] | null; error: unknown; status: number }) {
  const calls: unknown[][] = [];
  const client = {
    from: (table: string) => ({
      select: (columns: string) => ({
        eq: (column: string, value: string) => {
          calls.push([table, columns, column, value]);
          return Promise.resolve(answer);
        },
      }),
    }),
  };
  return { client: client as unknown as SupabaseClient, calls };
}

const serverReview: MyReview = {
  booking_id: 'b1',
  rating: 5,
  comment: 'Parfait',
  created_at: '2027-03-20T10:00:00Z',
};

beforeEach(async () => {
  await Promise.all([db.meta.clear(), db.outbox.clear()]);
});
afterEach(() => vi.restoreAllMocks());

describe('my reviews', () => {
  it('queues a review through the outbox and shows it at once', async () => {
    await submitReview('u1', 'b2', 4, 'Très bien');
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'submit_review',
      state: 'pending',
      payload: { booking_id: 'b2', rating: 4, comment: 'Très bien' },
    });
    const mine = reviewsByBooking(await readMyReviews('u1'));
    expect(mine.get('b2')).toMatchObject({ rating: 4, comment: 'Très bien' });
  });

  it('writes the review and its outbox entry in one transaction: never shown as sent', async () => {
    // Two transactions let the list read the review before its entry and say "sent" (issue 20).
    const root = (tx: Transaction) => {
      let t = tx as Transaction & { parent?: Transaction };
      while (t.parent) t = t.parent as Transaction & { parent?: Transaction };
      return t;
    };
    const seen: Transaction[] = [];
    const onMeta = (_key: unknown, _obj: unknown, tx: Transaction) => void seen.push(root(tx));
    const onOutbox = (_key: unknown, _obj: unknown, tx: Transaction) => void seen.push(root(tx));
    db.meta.hook('creating', onMeta);
    db.outbox.hook('creating', onOutbox);
    try {
      await submitReview('u1', 'b2', 4, null);
    } finally {
      db.meta.hook('creating').unsubscribe(onMeta);
      db.outbox.hook('creating').unsubscribe(onOutbox);
    }
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });

  it('pulls the server’s reviews of the user and drops local copies the server now has', async () => {
    await submitReview('u1', 'b1', 5, 'Parfait');
    await submitReview('u1', 'b3', 3, null);
    const { client, calls } = fakeClient({ data: [serverReview], error: null, status: 200 });
    expect(await pullMyReviews(client, 'u1')).toEqual({ ok: true });
    expect(calls).toEqual([
      ['reviews', 'booking_id, rating, comment, created_at', 'user_id', 'u1'],
    ]);
    const stored = await readMyReviews('u1');
    expect(stored.server).toEqual([serverReview]);
    expect(stored.local.map((r) => r.booking_id)).toEqual(['b3']);
    expect(stored.fetched_at).not.toBeNull();
    expect([...reviewsByBooking(stored).keys()].sort()).toEqual(['b1', 'b3']);
  });

  it('keeps what it has when the server cannot be reached', async () => {
    await submitReview('u1', 'b3', 3, null);
    const { client } = fakeClient({
      data: null,
      error: { message: 'TypeError: Failed to fetch', code: '' },
      status: 0,
    });
    expect(await pullMyReviews(client, 'u1')).toEqual({ ok: false, error: 'network' });
    expect((await readMyReviews('u1')).local).toHaveLength(1);
  });

  it('never shows another user’s reviews (a shared device)', async () => {
    await submitReview('u1', 'b3', 3, null);
    const other = await readMyReviews('u2');
    expect(other).toEqual({ user_id: 'u2', server: [], local: [], fetched_at: null });
    expect((await db.meta.get(MY_REVIEWS_KEY))?.value).toMatchObject({ user_id: 'u1' });
  });

  it('gives up a refused review: its entry and its local copy go', async () => {
    await submitReview('u1', 'b4', 2, 'Bof');
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry!.id, { state: 'parked', last_error: 'review_not_allowed' });
    await forgetRefusedReview('u1', 'b4', entry!.id);
    expect(await db.outbox.count()).toBe(0);
    expect(reviewsByBooking(await readMyReviews('u1')).has('b4')).toBe(false);
  });
});
