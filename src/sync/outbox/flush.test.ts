import { describe, expect, it } from 'vitest';

import { db } from '@/infra/db';
import {
  enqueueCancelBooking,
  enqueueMarkAllNotificationsRead,
  enqueueMarkNotificationRead,
  enqueueSubmitReview,
  queueBooking,
} from '@/sync/outbox/enqueue';
import { LAST_SYNC_KEY } from '@/sync/outbox/entry';
import { flushOutbox } from '@/sync/outbox/flush';
import {
  CAR,
  ID1,
  ID2,
  LOC,
  makeBooking,
  outboxTestbed,
  type Call,
} from '@/sync/outbox/testing/fake-server';

const t = outboxTestbed();

describe('flushOutbox', () => {
  it('uploads first, then creates, and marks the booking awaiting with the server price', async () => {
    await queueBooking(makeBooking(ID1));
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 2, parked: 0, remaining: 0, retryAt: null });
    expect(t.server.calls.map((c) => c.op)).toEqual(['upload', 'create_booking']);
    const booking = await db.bookings.get(ID1);
    expect(booking).toMatchObject({ status: 'pending', sync_state: 'awaiting', sync_error: null });
    expect(booking?.price.total).toBe(9000);
    expect(await db.files.count()).toBe(0);
    expect((await db.meta.get(LAST_SYNC_KEY))?.value).toBe(new Date(t.clock).toISOString());
  });

  it('keeps FIFO order across bookings', async () => {
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    await enqueueMarkNotificationRead('n1');
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls.map((c) => c.op)).toEqual([
      'upload',
      'create_booking',
      'upload',
      'create_booking',
      'mark_read',
    ]);
  });

  it('retries transient failures with backoff from 200 ms, doubling, counting attempts', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.failures = [{ status: 503 }, { status: 0, message: 'TypeError: Failed to fetch' }];

    let result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.stoppedBy).toEqual({ kind: 'transient', code: 'http_503' });
    expect(result.retryAt).toBe(t.clock + 200);
    let head = (await db.outbox.orderBy('seq').first())!;
    expect(head).toMatchObject({ attempts: 1, state: 'pending', last_error: 'http_503' });
    expect((await db.bookings.get(ID1))?.sync_state).toBe('queued');

    // Not due yet: nothing is sent.
    result = await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls).toHaveLength(1);
    expect(result.retryAt).toBe(t.clock + 200);

    t.clock += 200;
    result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.retryAt).toBe(t.clock + 400);
    head = (await db.outbox.orderBy('seq').first())!;
    expect(head.attempts).toBe(2);

    t.clock += 400;
    result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 2, remaining: 0, stoppedBy: null });
  });

  it('parks a refused booking, with the reason, and goes on with the others', async () => {
    t.server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 3, parked: 1, remaining: 1 });
    expect(await db.bookings.get(ID1)).toMatchObject({
      status: 'sync_failed',
      sync_state: 'needs_attention',
      sync_error: 'car_unavailable',
    });
    expect((await db.bookings.get(ID2))?.sync_state).toBe('awaiting');
    const parked = await db.outbox.toArray();
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ kind: 'create_booking', state: 'parked' });

    // A parked entry is not sent again by later flushes.
    t.server.calls = [];
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls).toEqual([]);
  });

  it('reports a refused booking so the person is told, and remembers they were', async () => {
    t.server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls.map((c) => c.op)).toEqual([
      'upload',
      'create_booking',
      'report_refused_booking',
    ]);
    expect(await db.bookings.get(ID1)).toMatchObject({
      status: 'sync_failed',
      sync_error: 'car_unavailable',
      refusal_report: 'notified',
    });
  });

  it('reports a refusal again on a later flush when the report got no answer', async () => {
    t.server.takenCars.add(CAR);
    t.server.reportAnswers = false;
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    let result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.parked).toBe(1);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      refusal_report: 'pending',
    });
    t.server.reportAnswers = true;
    result = await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.refusalReports).toEqual([ID1, ID1]);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      refusal_report: 'notified',
    });
    // Told once: no more reports.
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.refusalReports).toHaveLength(2);
  });

  it('keeps a refusal the server does not record on this device only, never reporting it again', async () => {
    t.server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1, 'KR-0000-0TAK', CAR));
    await flushOutbox({ transport: t.server, now: t.now });
    expect(await db.bookings.get(ID1)).toMatchObject({ sync_state: 'needs_attention' });
    expect((await db.bookings.get(ID1))?.refusal_report).toBeUndefined();
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.refusalReports).toEqual([ID1]);
  });

  it('sends the booking again when the server says it would take it now', async () => {
    t.server.takenCars.add(CAR);
    t.server.reportAnswers = false;
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await flushOutbox({ transport: t.server, now: t.now });
    // The car was freed meanwhile: the report answers booking_not_refused.
    t.server.takenCars.delete(CAR);
    t.server.reportAnswers = true;
    await flushOutbox({ transport: t.server, now: t.now });
    expect(await db.bookings.get(ID1)).toMatchObject({ status: 'queued', sync_state: 'queued' });
    t.clock += 1000;
    await flushOutbox({ transport: t.server, now: t.now });
    expect(await db.bookings.get(ID1)).toMatchObject({ status: 'pending', sync_error: null });
    expect(await db.outbox.count()).toBe(0);
  });

  it('takes the answer "created" of a report as the booking synced', async () => {
    await queueBooking(makeBooking(ID1));
    // The creation's answer was an error, but the booking exists (e.g. a replay raced it).
    t.server.failures = [{ status: 400, code: 'P0001', message: 'car_unavailable' }];
    t.server.objects.add(`licenses/${ID1}/licence-1.pdf`);
    t.server.bookings.set(ID1, { car_id: CAR, status: 'pending', user_id: null });
    await db.outbox.where('kind').equals('upload_file').delete();
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 1, parked: 0, remaining: 0 });
    expect(await db.bookings.get(ID1)).toMatchObject({ status: 'pending', sync_state: 'awaiting' });
  });

  it('lets a booking wait out a server limit, never dropping it, while the rest goes', async () => {
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await enqueueMarkNotificationRead('n1');
    const until = t.clock + 30 * 60 * 1000;
    t.server.failures = [
      {
        status: 400,
        code: 'P0001',
        message: 'too_many_pending_for_contact',
        details: JSON.stringify({ limit: 3, retry_after: new Date(until).toISOString() }),
      },
    ];
    t.server.objects.add(`licenses/${ID1}/licence-1.pdf`);
    await db.outbox.where('kind').equals('upload_file').delete();
    let result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ deferred: 1, parked: 0, stoppedBy: null, retryAt: until });
    expect(t.server.readNotifications.has('n1')).toBe(true);
    expect(await db.bookings.get(ID1)).toMatchObject({
      status: 'queued',
      sync_state: 'queued',
      sync_error: 'too_many_pending_for_contact',
    });
    // Not before its time…
    t.server.calls = [];
    t.clock = until - 1000;
    await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.calls).toEqual([]);
    // …then it goes.
    t.clock = until;
    result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 1, remaining: 0 });
    expect(await db.bookings.get(ID1)).toMatchObject({ status: 'pending', sync_error: null });
  });

  it('parks the booking with its refused upload, never sending the creation', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.failures = [{ status: 415, statusCode: '415', message: 'invalid mime type' }];
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.parked).toBe(2);
    expect(t.server.calls.map((c) => c.op)).toEqual(['upload']);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      sync_error: 'unsupported_file_type',
    });
    const states = (await db.outbox.orderBy('seq').toArray()).map((e) => e.state);
    expect(states).toEqual(['parked', 'parked']);
  });

  it('refreshes the session once on 401 and retries', async () => {
    await enqueueMarkNotificationRead('n1');
    t.server.failures = [{ status: 401, code: 'PGRST301', message: 'JWT expired' }];
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.refreshes).toBe(1);
    expect(result.sent).toBe(1);
    expect(t.server.readNotifications.has('n1')).toBe(true);
  });

  it('backs off when the session cannot be refreshed', async () => {
    await enqueueMarkNotificationRead('n1');
    t.server.refreshWorks = false;
    t.server.failures = [{ status: 401 }];
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(t.server.refreshes).toBe(1);
    expect(result.stoppedBy?.kind).toBe('auth');
    expect((await db.outbox.toArray())[0]).toMatchObject({ attempts: 1, state: 'pending' });
  });

  it('resumes entries left "sending" by a flush that died', async () => {
    await queueBooking(makeBooking(ID1));
    const [upload] = await db.outbox.orderBy('seq').toArray();
    await db.outbox.update(upload!.id, { state: 'sending' });
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.sent).toBe(2);
  });

  it('stops between entries when asked to', async () => {
    await queueBooking(makeBooking(ID1));
    let n = 0;
    const result = await flushOutbox({
      transport: t.server,
      now: t.now,
      shouldStop: () => n++ > 0,
    });
    expect(result).toMatchObject({ sent: 1, remaining: 1 });
  });

  it('is idempotent: replaying everything changes nothing on the server', async () => {
    const mine = makeBooking(ID1);
    await queueBooking({
      ...mine,
      booking: { ...mine.booking, user_id: 'user-1', is_guest: false },
    });
    t.server.user = 'user-1';
    await enqueueSubmitReview(ID1, 5, 'Great');
    await enqueueMarkAllNotificationsRead('user-1');
    const entries = await db.outbox.toArray();
    await flushOutbox({ transport: t.server, now: t.now });
    await enqueueCancelBooking(ID1);
    await flushOutbox({ transport: t.server, now: t.now });
    const cancelEntry = { ...(t.server.calls.at(-1) as Call) };
    expect(cancelEntry.op).toBe('cancel_booking');
    const snapshot = JSON.stringify([
      [...t.server.objects],
      [...t.server.bookings],
      [...t.server.reviews],
      [...t.server.readNotifications],
    ]);

    // The same writes again (a page closed before it could delete them, three times over).
    for (let i = 0; i < 3; i += 1) {
      await db.outbox.bulkPut(entries.map((e) => ({ ...e, state: 'pending' as const })));
      await db.files.put(makeBooking(ID1).files[0]!);
      await db.bookings.update(ID1, { sync_state: 'queued' });
      await enqueueCancelBooking(ID1);
      const result = await flushOutbox({ transport: t.server, now: t.now });
      expect(result).toMatchObject({ parked: 0, remaining: 0 });
    }
    expect(
      JSON.stringify([
        [...t.server.objects],
        [...t.server.bookings],
        [...t.server.reviews],
        [...t.server.readNotifications],
      ]),
    ).toBe(snapshot);
    expect(t.server.bookings.size).toBe(1);
  });
});

describe('an upload refused because its booking already exists', () => {
  it('is taken as landed when the booking creation replays fine', async () => {
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: t.server, now: t.now });
    // A replay from scratch: the device lost the fact that the booking landed.
    await queueBooking(makeBooking(ID1));
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ parked: 0, remaining: 0 });
    expect(t.server.calls.filter((c) => c.op === 'create_booking')).toHaveLength(3);
    expect(t.server.bookings.size).toBe(1);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('awaiting');
  });

  it('is parked when the booking does not exist (the creation fails too)', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.failures = [{ status: 403, statusCode: '403', message: 'policy' }];
    t.server.failures.push({ status: 400, code: 'P0001', message: 'licence_required' });
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result.parked).toBe(2);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      sync_error: 'not_allowed',
    });
  });
});

describe('whose session sends an entry', () => {
  const ALICE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1';
  const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb2';

  function signedInBooking(id: string, userId: string, reference: string) {
    const b = makeBooking(id, reference);
    return { ...b, booking: { ...b.booking, user_id: userId, is_guest: false } };
  }

  it('sends a guest booking with the anon key even when someone signed in since', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.user = ALICE;
    const result = await flushOutbox({
      transport: t.server,
      guestTransport: t.server.asGuest(),
      now: t.now,
    });
    expect(result).toMatchObject({ sent: 2, held: 0, remaining: 0 });
    expect(t.server.calls.map((c) => c.user)).toEqual([null, null]);
    expect(t.server.bookings.get(ID1)?.user_id).toBeNull();
  });

  it('holds a guest booking while someone is signed in and no guest transport is given', async () => {
    await queueBooking(makeBooking(ID1));
    t.server.user = ALICE;
    const result = await flushOutbox({ transport: t.server, now: t.now });
    expect(result).toMatchObject({ sent: 0, held: 2, retryAt: null });
    expect(t.server.calls).toEqual([]);
  });

  it("holds a user's booking until that user is signed in again, and sends the others", async () => {
    await queueBooking(signedInBooking(ID1, ALICE, 'KR-0000-0001'));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    const guest = t.server.asGuest();

    t.server.user = null; // signed out, e.g. the session expired and could not be refreshed
    let result = await flushOutbox({ transport: t.server, guestTransport: guest, now: t.now });
    expect(result).toMatchObject({ sent: 2, held: 2, retryAt: null });
    expect(t.server.bookings.has(ID1)).toBe(false);
    expect(t.server.bookings.get(ID2)?.user_id).toBeNull();

    t.server.user = BOB; // another account on the same phone
    result = await flushOutbox({ transport: t.server, guestTransport: guest, now: t.now });
    expect(result).toMatchObject({ sent: 0, held: 2 });
    expect(t.server.bookings.has(ID1)).toBe(false);

    t.server.user = ALICE;
    result = await flushOutbox({ transport: t.server, guestTransport: guest, now: t.now });
    expect(result).toMatchObject({ sent: 2, held: 0, remaining: 0 });
    expect(t.server.bookings.get(ID1)?.user_id).toBe(ALICE);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('awaiting');
  });

  it('gives a cancel, a review and a read mark the owner of what they are about', async () => {
    await queueBooking(signedInBooking(ID1, ALICE, 'KR-0000-0001'));
    await enqueueSubmitReview(ID1, 5, null);
    await db.notifications.put({
      id: 'n1',
      user_id: BOB,
      booking_id: null,
      type: 'booking_confirmed',
      is_read: false,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    await enqueueMarkNotificationRead('n1');
    await enqueueMarkAllNotificationsRead(BOB);
    const owners = (await db.outbox.orderBy('seq').toArray()).map((e) => [e.kind, e.owner]);
    expect(owners).toEqual([
      ['upload_file', ALICE],
      ['create_booking', ALICE],
      ['submit_review', ALICE],
      ['mark_notification_read', BOB],
      ['mark_notification_read', BOB],
    ]);
  });

  it('sends entries queued before owners existed with whoever is signed in', async () => {
    await queueBooking(makeBooking(ID1));
    await db.outbox.toCollection().modify((e) => {
      delete e.owner;
    });
    t.server.user = ALICE;
    const result = await flushOutbox({
      transport: t.server,
      guestTransport: t.server.asGuest(),
      now: t.now,
    });
    expect(result).toMatchObject({ sent: 2, held: 0 });
    expect(t.server.calls.map((c) => c.user)).toEqual([ALICE, ALICE]);
  });
});
