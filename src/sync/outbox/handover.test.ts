import { describe, expect, it } from 'vitest';

import type { HandoverRequest } from '@/domain/handover';
import { db } from '@/infra/db';
import { flushOutbox } from '@/sync/outbox/flush';
import { discardQueuedHandover, queueHandover, readQueuedHandovers } from '@/sync/outbox/handover';
import { ID1, outboxTestbed } from '@/sync/outbox/testing/fake-server';
import { pickupDraft, RECORD, STAFF, twoPhotos } from '@/sync/outbox/testing/handover-fixtures';

const t = outboxTestbed();

describe('a pickup record with photos in the outbox', () => {
  it('stores the photos as Blobs under stable paths, the record depending on their uploads', async () => {
    const payload = await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    expect(payload.photos).toEqual([
      { angle: 'front', path: `${ID1}/${RECORD}-front.jpg` },
      { angle: 'rear_left', path: `${ID1}/${RECORD}-rear_left.png` },
    ]);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.kind)).toEqual(['upload_file', 'upload_file', 'record_handover']);
    expect(entries[2]!.depends_on).toEqual([entries[0]!.id, entries[1]!.id]);
    expect(entries.every((e) => e.owner === STAFF)).toBe(true);
    // The files table is keyed by a random id: its order is not the photos' order.
    const files = (await db.files.toArray()).sort((a, b) => a.path.localeCompare(b.path));
    expect(files.map((f) => [f.bucket, f.path, f.type, !!f.blob])).toEqual([
      ['handovers', `${ID1}/${RECORD}-front.jpg`, 'image/jpeg', true],
      ['handovers', `${ID1}/${RECORD}-rear_left.png`, 'image/png', true],
    ]);

    // A reload (the database opened again) finds it all still queued.
    db.close();
    await db.open();
    expect(await readQueuedHandovers(ID1)).toEqual([
      expect.objectContaining({ kind: 'pickup', state: 'pending', photosLeft: 2, error: null }),
    ]);
  });

  it('sends the photos first, then the record once; replaying changes nothing', async () => {
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    t.server.user = STAFF;
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 3, parked: 0, remaining: 0 });
    expect(t.server.calls.map((c) => c.op)).toEqual(['upload', 'upload', 'staff_record_handover']);
    expect([...t.server.objects].sort()).toEqual([
      `handovers/${ID1}/${RECORD}-front.jpg`,
      `handovers/${ID1}/${RECORD}-rear_left.png`,
    ]);
    expect(t.server.handovers.size).toBe(1);
    expect(await db.files.count()).toBe(0);
    expect(await readQueuedHandovers()).toEqual([]);

    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls).toHaveLength(3);
  });

  it('waits while its staff member is not signed in here', async () => {
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    t.server.user = null;
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 0, held: 3, remaining: 3 });
    expect(t.server.calls).toEqual([]);
  });

  it('survives a network failure mid-way and a lost answer: one record, its photos once each', async () => {
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    t.server.user = STAFF;
    // The second photo meets the network down.
    t.server.failures = [];
    const first = await flushOutbox({
      transport: Object.assign(Object.create(t.server) as typeof t.server, {
        upload: async (bucket: string, path: string) => {
          if (path.endsWith('rear_left.png')) return { data: null, error: { status: 0 } };
          return t.server.upload(bucket, path);
        },
      }),
      now: t.now,
    });
    expect(first.stoppedBy).toEqual({ kind: 'transient', code: 'network' });
    expect(await readQueuedHandovers(ID1)).toEqual([
      expect.objectContaining({ state: 'pending', photosLeft: 1, attempts: 1 }),
    ]);

    // Back online: the record lands but its answer is lost; the replay answers the same record.
    t.server.loseAnswerOf.add('staff_record_handover');
    t.clock += 1000;
    const second = await flushOutbox({ transport: t.server, now: t.now });
    expect(second.stoppedBy?.kind).toBe('transient');
    t.clock += 1000;
    const third = await flushOutbox({ transport: t.server, now: t.now });
    expect(third).toMatchObject({ sent: 1, remaining: 0 });
    expect(t.server.handovers.size).toBe(1);
    expect(t.server.calls.filter((c) => c.op === 'upload')).toHaveLength(2);
    expect(await db.files.count()).toBe(0);
  });

  it('parks a refused record with its code; discarding drops its entries and photos', async () => {
    const other: HandoverRequest = {
      ...pickupDraft('cccccccc-cccc-4ccc-8ccc-ccccccccccc9'),
      photos: [],
    };
    t.server.handovers.set(other.id, other);
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    t.server.user = STAFF;
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 2, parked: 1 });
    const [queued] = await readQueuedHandovers(ID1);
    expect(queued).toMatchObject({ state: 'parked', error: 'handover_exists', photosLeft: 0 });

    await discardQueuedHandover(queued!.entryId);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.files.count()).toBe(0);
  });

  it('refuses a second record of the same kind while one waits, and a payload the server would refuse', async () => {
    await queueHandover(pickupDraft(), [], STAFF);
    await expect(
      queueHandover(pickupDraft('cccccccc-cccc-4ccc-8ccc-ccccccccccc2'), [], STAFF),
    ).rejects.toThrow('handover_queued');
    await expect(
      queueHandover(
        { ...pickupDraft('cccccccc-cccc-4ccc-8ccc-ccccccccccc3'), fuel_eighths: 9 },
        [],
        STAFF,
      ),
    ).rejects.toThrow();
    expect(await db.outbox.count()).toBe(1);
  });
});
