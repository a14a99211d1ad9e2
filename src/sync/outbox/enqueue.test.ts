import { describe, expect, it } from 'vitest';

import { db } from '@/infra/db';
import { discardUnsentBooking, enqueueCancelBooking, queueBooking } from '@/sync/outbox/enqueue';
import { flushOutbox } from '@/sync/outbox/flush';
import { dismissParked, retryParked, updateQueuedBooking } from '@/sync/outbox/parked';
import {
  CAR,
  ID1,
  LOC,
  makeBooking,
  price,
  outboxTestbed,
} from '@/sync/outbox/testing/fake-server';

const t = outboxTestbed();

describe('queueBooking', () => {
  it('stores the booking, its files, the uploads and then the creation in one go', async () => {
    const b = makeBooking(ID1);
    await queueBooking(b);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.kind)).toEqual(['upload_file', 'create_booking']);
    expect(entries[1]!.depends_on).toEqual([entries[0]!.id]);
    expect(entries[0]!.seq).toBeLessThan(entries[1]!.seq);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('queued');
    expect((await db.files.get(`${ID1}-file`))?.blob).toBeDefined();
  });

  it('writes nothing when the payload is invalid', async () => {
    const b = makeBooking(ID1);
    await expect(
      queueBooking({ ...b, payload: { ...b.payload, reference: 'nope' } }),
    ).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.bookings.count()).toBe(0);
  });
});

describe('cancelling and discarding', () => {
  it('removes a queued booking from the outbox: nothing is sent', async () => {
    await queueBooking(makeBooking(ID1));
    expect(await enqueueCancelBooking(ID1)).toBe('discarded');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.files.count()).toBe(0);
    expect(await db.bookings.get(ID1)).toBeUndefined();
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls).toEqual([]);
  });

  it('cancels a sent booking through cancel_booking', async () => {
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: t.server, now: t.now });
    expect(await discardUnsentBooking(ID1)).toBe(false);
    const before = (await db.bookings.get(ID1))?.status;
    expect(await enqueueCancelBooking(ID1)).toBe('queued');
    // Not cancelled on this device before the server took it (issue 20).
    expect((await db.bookings.get(ID1))?.status).toBe(before);
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.bookings.get(ID1)?.status).toBe('cancelled');
    expect((await db.bookings.get(ID1))?.status).toBe('cancelled');
  });

  it('makes a cancel wait for a creation in flight', async () => {
    await queueBooking(makeBooking(ID1));
    const create = (await db.outbox.where('kind').equals('create_booking').first())!;
    await db.outbox.update(create.id, { state: 'sending' });
    expect(await enqueueCancelBooking(ID1)).toBe('queued');
    const cancel = (await db.outbox.where('kind').equals('cancel_booking').first())!;
    expect(cancel.depends_on).toEqual([create.id]);
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls.map((c) => c.op)).toEqual(['upload', 'create_booking', 'cancel_booking']);
    expect(t.server.bookings.get(ID1)?.status).toBe('cancelled');
  });

  it('lets a parked booking be discarded, or fixed with another car and sent', async () => {
    t.server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: t.server, now: t.now });
    expect((await db.bookings.get(ID1))?.sync_state).toBe('needs_attention');

    await updateQueuedBooking(ID1, { car_id: LOC }, { ...price, total: 12345 });
    expect(await db.bookings.get(ID1)).toMatchObject({
      car_id: LOC,
      sync_state: 'queued',
      total_dzd: 12345,
    });
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.bookings.get(ID1)?.car_id).toBe(LOC);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('awaiting');
  });

  it('retries a parked entry and its dependants on demand, or drops them', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.failures = [{ status: 403, statusCode: '403', message: 'new row violates policy' }];
    await flushOutbox({ transport: t.server, now: t.now });
    const [upload] = await db.outbox.orderBy('seq').toArray();
    expect(upload?.state).toBe('parked');
    await retryParked(upload!.id);
    expect((await db.outbox.toArray()).every((e) => e.state === 'pending')).toBe(true);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('queued');

    t.server.failures = [{ status: 403, statusCode: '403', message: 'new row violates policy' }];
    await flushOutbox({ transport: t.server, now: t.now });
    await dismissParked(upload!.id);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.bookings.get(ID1)).toBeUndefined();
  });
});
