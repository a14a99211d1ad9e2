import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { db, type LocalBooking, type LocalFile } from '@/infra/db';
import {
  backoffDelay,
  classifyError,
  discardUnsentBooking,
  dismissParked,
  enqueueCancelBooking,
  enqueueMarkAllNotificationsRead,
  enqueueMarkNotificationRead,
  enqueueSubmitReview,
  flushOutbox,
  LAST_SYNC_KEY,
  queueBooking,
  retryParked,
  updateQueuedBooking,
  type ApiError,
  type CallResult,
  type CreateBookingPayload,
  type MarkNotificationReadPayload,
  type OutboxTransport,
} from '@/sync/outbox';

const price = {
  days: 2,
  base: 10000,
  extras_total: 0,
  insurance_total: 0,
  driver_total: 0,
  pickup_fee: 0,
  dropoff_fee: 0,
  subtotal: 10000,
  deposit: 30000,
  total: 10000,
  currency: 'DZD' as const,
};

const CAR = '11111111-1111-4111-8111-111111111111';
const LOC = '22222222-2222-4222-8222-222222222222';

function makeBooking(id: string, reference = 'KR-0000-0001', carId = CAR) {
  const payload: CreateBookingPayload = {
    id,
    reference,
    car_id: carId,
    start_at: '2030-03-12T10:00:00+01:00',
    end_at: '2030-03-14T10:00:00+01:00',
    pickup_location_id: LOC,
    dropoff_location_id: LOC,
    driver_option: 'self',
    license_path: `${id}/licence-1.pdf`,
    flight_document_path: null,
    from_abroad: false,
    additional_requests: null,
    extras: [],
    insurance: ['civil_liability'],
    payment_method: 'cash',
    guest_name: 'Amina B',
    guest_phone: '+213555123456',
    guest_email: 'amina@example.com',
  };
  const booking: LocalBooking = {
    ...payload,
    user_id: null,
    extras: [],
    insurance: ['civil_liability'],
    payment_status: 'unpaid',
    notes: null,
    status: 'queued',
    status_reason: null,
    price,
    total_dzd: price.total,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    sync_state: 'queued',
    sync_error: null,
    is_guest: true,
  };
  const file: LocalFile = {
    id: `${id}-file`,
    bucket: 'licenses',
    path: payload.license_path,
    name: 'licence.pdf',
    type: 'application/pdf',
    blob: new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }),
  };
  return { payload, booking, files: [file] };
}

type Call = { op: string; key: string; user?: string | null };

/** An in-memory server with the real one's idempotency rules. */
class FakeServer implements OutboxTransport {
  objects = new Set<string>();
  bookings = new Map<string, { car_id: string; status: string; user_id: string | null }>();
  reviews = new Set<string>();
  readNotifications = new Set<string>();
  calls: Call[] = [];
  /** Errors to answer, in order, before behaving normally. */
  failures: ApiError[] = [];
  refreshes = 0;
  refreshWorks = true;
  takenCars = new Set<string>();
  /** Who the transport is signed in as (null: anon key only). */
  user: string | null = null;

  /** The same server seen through a session-less client. */
  asGuest(): FakeServer {
    return Object.assign(Object.create(this) as FakeServer, { user: null });
  }

  async userId(): Promise<string | null> {
    return this.user;
  }

  private nextFailure(): ApiError | null {
    return this.failures.shift() ?? null;
  }

  async rpc<T>(fn: string, args: Record<string, unknown>): Promise<CallResult<T>> {
    const failure = this.nextFailure();
    this.calls.push({ op: fn, key: JSON.stringify(args).slice(0, 60), user: this.user });
    if (failure) return { data: null, error: failure };
    if (fn === 'create_booking') {
      const p = args.p as CreateBookingPayload;
      const existing = this.bookings.get(p.id);
      if (!existing) {
        if (!this.objects.has(`licenses/${p.license_path}`)) {
          return { data: null, error: { status: 400, code: 'P0001', message: 'licence_required' } };
        }
        if (this.takenCars.has(p.car_id)) {
          return { data: null, error: { status: 400, code: 'P0001', message: 'car_unavailable' } };
        }
        this.bookings.set(p.id, { car_id: p.car_id, status: 'pending', user_id: this.user });
        this.takenCars.add(p.car_id);
      }
      const row = { ...p, ...this.bookings.get(p.id), price: { ...price, total: 9000 } };
      return { data: row as T, error: null };
    }
    if (fn === 'cancel_booking') {
      const b = this.bookings.get(args.booking_id as string);
      if (!b) return { data: null, error: { status: 400, code: 'P0001', message: 'not_found' } };
      if (b.status === 'cancelled') {
        return {
          data: null,
          error: { status: 400, code: 'P0001', message: 'invalid_status_transition' },
        };
      }
      b.status = 'cancelled';
      return { data: null, error: null };
    }
    if (fn === 'submit_review') {
      const id = args.booking_id as string;
      if (this.reviews.has(id)) {
        return { data: null, error: { status: 400, code: 'P0001', message: 'already_reviewed' } };
      }
      this.reviews.add(id);
      return { data: null, error: null };
    }
    throw new Error(`unexpected rpc ${fn}`);
  }

  async upload(bucket: string, path: string): Promise<CallResult> {
    const failure = this.nextFailure();
    this.calls.push({ op: 'upload', key: `${bucket}/${path}`, user: this.user });
    if (failure) return { data: null, error: failure };
    const key = `${bucket}/${path}`;
    // Like the storage policies: a visitor may not write into the folder of an existing booking.
    if (this.bookings.has(path.split('/')[0]!)) {
      return {
        data: null,
        error: { status: 403, statusCode: '403', message: 'new row violates row-level security' },
      };
    }
    if (this.objects.has(key)) {
      return {
        data: null,
        error: { status: 400, statusCode: '409', message: 'The resource already exists' },
      };
    }
    this.objects.add(key);
    return { data: { path }, error: null };
  }

  async markNotificationsRead(p: MarkNotificationReadPayload): Promise<CallResult> {
    const failure = this.nextFailure();
    this.calls.push({ op: 'mark_read', key: p.notification_id ?? `all:${p.all_of_user}` });
    if (failure) return { data: null, error: failure };
    this.readNotifications.add(p.notification_id ?? `all:${p.all_of_user}`);
    return { data: null, error: null };
  }

  async bookingStatus(id: string): Promise<CallResult<string>> {
    return { data: this.bookings.get(id)?.status ?? null, error: null };
  }

  async refreshSession(): Promise<boolean> {
    this.refreshes += 1;
    return this.refreshWorks;
  }
}

const ID1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
const ID2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';

let server: FakeServer;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  server = new FakeServer();
  clock = Date.parse('2030-01-01T00:00:00Z');
});

afterEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
});

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

describe('flushOutbox', () => {
  it('uploads first, then creates, and marks the booking awaiting with the server price', async () => {
    await queueBooking(makeBooking(ID1));
    const result = await flushOutbox({ transport: server, now });
    expect(result).toMatchObject({ sent: 2, parked: 0, remaining: 0, retryAt: null });
    expect(server.calls.map((c) => c.op)).toEqual(['upload', 'create_booking']);
    const booking = await db.bookings.get(ID1);
    expect(booking).toMatchObject({ status: 'pending', sync_state: 'awaiting', sync_error: null });
    expect(booking?.price.total).toBe(9000);
    expect(await db.files.count()).toBe(0);
    expect((await db.meta.get(LAST_SYNC_KEY))?.value).toBe(new Date(clock).toISOString());
  });

  it('keeps FIFO order across bookings', async () => {
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    await enqueueMarkNotificationRead('n1');
    await flushOutbox({ transport: server, now });
    expect(server.calls.map((c) => c.op)).toEqual([
      'upload',
      'create_booking',
      'upload',
      'create_booking',
      'mark_read',
    ]);
  });

  it('retries transient failures with backoff from 200 ms, doubling, counting attempts', async () => {
    await queueBooking(makeBooking(ID1));
    server.failures = [{ status: 503 }, { status: 0, message: 'TypeError: Failed to fetch' }];

    let result = await flushOutbox({ transport: server, now });
    expect(result.stoppedBy).toEqual({ kind: 'transient', code: 'http_503' });
    expect(result.retryAt).toBe(clock + 200);
    let head = (await db.outbox.orderBy('seq').first())!;
    expect(head).toMatchObject({ attempts: 1, state: 'pending', last_error: 'http_503' });
    expect((await db.bookings.get(ID1))?.sync_state).toBe('queued');

    // Not due yet: nothing is sent.
    result = await flushOutbox({ transport: server, now });
    expect(server.calls).toHaveLength(1);
    expect(result.retryAt).toBe(clock + 200);

    clock += 200;
    result = await flushOutbox({ transport: server, now });
    expect(result.retryAt).toBe(clock + 400);
    head = (await db.outbox.orderBy('seq').first())!;
    expect(head.attempts).toBe(2);

    clock += 400;
    result = await flushOutbox({ transport: server, now });
    expect(result).toMatchObject({ sent: 2, remaining: 0, stoppedBy: null });
  });

  it('parks a refused booking, with the reason, and goes on with the others', async () => {
    server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1, 'KR-0000-0001', CAR));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    const result = await flushOutbox({ transport: server, now });
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
    server.calls = [];
    await flushOutbox({ transport: server, now });
    expect(server.calls).toEqual([]);
  });

  it('parks the booking with its refused upload, never sending the creation', async () => {
    await queueBooking(makeBooking(ID1));
    server.failures = [{ status: 415, statusCode: '415', message: 'invalid mime type' }];
    const result = await flushOutbox({ transport: server, now });
    expect(result.parked).toBe(2);
    expect(server.calls.map((c) => c.op)).toEqual(['upload']);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      sync_error: 'unsupported_file_type',
    });
    const states = (await db.outbox.orderBy('seq').toArray()).map((e) => e.state);
    expect(states).toEqual(['parked', 'parked']);
  });

  it('refreshes the session once on 401 and retries', async () => {
    await enqueueMarkNotificationRead('n1');
    server.failures = [{ status: 401, code: 'PGRST301', message: 'JWT expired' }];
    const result = await flushOutbox({ transport: server, now });
    expect(server.refreshes).toBe(1);
    expect(result.sent).toBe(1);
    expect(server.readNotifications.has('n1')).toBe(true);
  });

  it('backs off when the session cannot be refreshed', async () => {
    await enqueueMarkNotificationRead('n1');
    server.refreshWorks = false;
    server.failures = [{ status: 401 }];
    const result = await flushOutbox({ transport: server, now });
    expect(server.refreshes).toBe(1);
    expect(result.stoppedBy?.kind).toBe('auth');
    expect((await db.outbox.toArray())[0]).toMatchObject({ attempts: 1, state: 'pending' });
  });

  it('resumes entries left "sending" by a flush that died', async () => {
    await queueBooking(makeBooking(ID1));
    const [upload] = await db.outbox.orderBy('seq').toArray();
    await db.outbox.update(upload!.id, { state: 'sending' });
    const result = await flushOutbox({ transport: server, now });
    expect(result.sent).toBe(2);
  });

  it('stops between entries when asked to', async () => {
    await queueBooking(makeBooking(ID1));
    let n = 0;
    const result = await flushOutbox({ transport: server, now, shouldStop: () => n++ > 0 });
    expect(result).toMatchObject({ sent: 1, remaining: 1 });
  });

  it('is idempotent: replaying everything changes nothing on the server', async () => {
    const mine = makeBooking(ID1);
    await queueBooking({
      ...mine,
      booking: { ...mine.booking, user_id: 'user-1', is_guest: false },
    });
    server.user = 'user-1';
    await enqueueSubmitReview(ID1, 5, 'Great');
    await enqueueMarkAllNotificationsRead('user-1');
    const entries = await db.outbox.toArray();
    await flushOutbox({ transport: server, now });
    await enqueueCancelBooking(ID1);
    await flushOutbox({ transport: server, now });
    const cancelEntry = { ...(server.calls.at(-1) as Call) };
    expect(cancelEntry.op).toBe('cancel_booking');
    const snapshot = JSON.stringify([
      [...server.objects],
      [...server.bookings],
      [...server.reviews],
      [...server.readNotifications],
    ]);

    // The same writes again (a page closed before it could delete them, three times over).
    for (let i = 0; i < 3; i += 1) {
      await db.outbox.bulkPut(entries.map((e) => ({ ...e, state: 'pending' as const })));
      await db.files.put(makeBooking(ID1).files[0]!);
      await db.bookings.update(ID1, { sync_state: 'queued' });
      await enqueueCancelBooking(ID1);
      const result = await flushOutbox({ transport: server, now });
      expect(result).toMatchObject({ parked: 0, remaining: 0 });
    }
    expect(
      JSON.stringify([
        [...server.objects],
        [...server.bookings],
        [...server.reviews],
        [...server.readNotifications],
      ]),
    ).toBe(snapshot);
    expect(server.bookings.size).toBe(1);
  });
});

describe('an upload refused because its booking already exists', () => {
  it('is taken as landed when the booking creation replays fine', async () => {
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: server, now });
    // A replay from scratch: the device lost the fact that the booking landed.
    await queueBooking(makeBooking(ID1));
    const result = await flushOutbox({ transport: server, now });
    expect(result).toMatchObject({ parked: 0, remaining: 0 });
    expect(server.calls.filter((c) => c.op === 'create_booking')).toHaveLength(3);
    expect(server.bookings.size).toBe(1);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('awaiting');
  });

  it('is parked when the booking does not exist (the creation fails too)', async () => {
    await queueBooking(makeBooking(ID1));
    server.failures = [{ status: 403, statusCode: '403', message: 'policy' }];
    server.failures.push({ status: 400, code: 'P0001', message: 'licence_required' });
    const result = await flushOutbox({ transport: server, now });
    expect(result.parked).toBe(2);
    expect(await db.bookings.get(ID1)).toMatchObject({
      sync_state: 'needs_attention',
      sync_error: 'not_allowed',
    });
  });
});

describe('cancelling and discarding', () => {
  it('removes a queued booking from the outbox: nothing is sent', async () => {
    await queueBooking(makeBooking(ID1));
    expect(await enqueueCancelBooking(ID1)).toBe('discarded');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.files.count()).toBe(0);
    expect(await db.bookings.get(ID1)).toBeUndefined();
    await flushOutbox({ transport: server, now });
    expect(server.calls).toEqual([]);
  });

  it('cancels a sent booking through cancel_booking', async () => {
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: server, now });
    expect(await discardUnsentBooking(ID1)).toBe(false);
    expect(await enqueueCancelBooking(ID1)).toBe('queued');
    expect((await db.bookings.get(ID1))?.status).toBe('cancelled');
    await flushOutbox({ transport: server, now });
    expect(server.bookings.get(ID1)?.status).toBe('cancelled');
  });

  it('makes a cancel wait for a creation in flight', async () => {
    await queueBooking(makeBooking(ID1));
    const create = (await db.outbox.where('kind').equals('create_booking').first())!;
    await db.outbox.update(create.id, { state: 'sending' });
    expect(await enqueueCancelBooking(ID1)).toBe('queued');
    const cancel = (await db.outbox.where('kind').equals('cancel_booking').first())!;
    expect(cancel.depends_on).toEqual([create.id]);
    await flushOutbox({ transport: server, now });
    expect(server.calls.map((c) => c.op)).toEqual(['upload', 'create_booking', 'cancel_booking']);
    expect(server.bookings.get(ID1)?.status).toBe('cancelled');
  });

  it('lets a parked booking be discarded, or fixed with another car and sent', async () => {
    server.takenCars.add(CAR);
    await queueBooking(makeBooking(ID1));
    await flushOutbox({ transport: server, now });
    expect((await db.bookings.get(ID1))?.sync_state).toBe('needs_attention');

    await updateQueuedBooking(ID1, { car_id: LOC }, { ...price, total: 12345 });
    expect(await db.bookings.get(ID1)).toMatchObject({
      car_id: LOC,
      sync_state: 'queued',
      total_dzd: 12345,
    });
    await flushOutbox({ transport: server, now });
    expect(server.bookings.get(ID1)?.car_id).toBe(LOC);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('awaiting');
  });

  it('retries a parked entry and its dependants on demand, or drops them', async () => {
    await queueBooking(makeBooking(ID1));
    server.failures = [{ status: 403, statusCode: '403', message: 'new row violates policy' }];
    await flushOutbox({ transport: server, now });
    const [upload] = await db.outbox.orderBy('seq').toArray();
    expect(upload?.state).toBe('parked');
    await retryParked(upload!.id);
    expect((await db.outbox.toArray()).every((e) => e.state === 'pending')).toBe(true);
    expect((await db.bookings.get(ID1))?.sync_state).toBe('queued');

    server.failures = [{ status: 403, statusCode: '403', message: 'new row violates policy' }];
    await flushOutbox({ transport: server, now });
    await dismissParked(upload!.id);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.bookings.get(ID1)).toBeUndefined();
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
    server.user = ALICE;
    const result = await flushOutbox({ transport: server, guestTransport: server.asGuest(), now });
    expect(result).toMatchObject({ sent: 2, held: 0, remaining: 0 });
    expect(server.calls.map((c) => c.user)).toEqual([null, null]);
    expect(server.bookings.get(ID1)?.user_id).toBeNull();
  });

  it('holds a guest booking while someone is signed in and no guest transport is given', async () => {
    await queueBooking(makeBooking(ID1));
    server.user = ALICE;
    const result = await flushOutbox({ transport: server, now });
    expect(result).toMatchObject({ sent: 0, held: 2, retryAt: null });
    expect(server.calls).toEqual([]);
  });

  it("holds a user's booking until that user is signed in again, and sends the others", async () => {
    await queueBooking(signedInBooking(ID1, ALICE, 'KR-0000-0001'));
    await queueBooking(makeBooking(ID2, 'KR-0000-0002', LOC));
    const guest = server.asGuest();

    server.user = null; // signed out, e.g. the session expired and could not be refreshed
    let result = await flushOutbox({ transport: server, guestTransport: guest, now });
    expect(result).toMatchObject({ sent: 2, held: 2, retryAt: null });
    expect(server.bookings.has(ID1)).toBe(false);
    expect(server.bookings.get(ID2)?.user_id).toBeNull();

    server.user = BOB; // another account on the same phone
    result = await flushOutbox({ transport: server, guestTransport: guest, now });
    expect(result).toMatchObject({ sent: 0, held: 2 });
    expect(server.bookings.has(ID1)).toBe(false);

    server.user = ALICE;
    result = await flushOutbox({ transport: server, guestTransport: guest, now });
    expect(result).toMatchObject({ sent: 2, held: 0, remaining: 0 });
    expect(server.bookings.get(ID1)?.user_id).toBe(ALICE);
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
    server.user = ALICE;
    const result = await flushOutbox({ transport: server, guestTransport: server.asGuest(), now });
    expect(result).toMatchObject({ sent: 2, held: 0 });
    expect(server.calls.map((c) => c.user)).toEqual([ALICE, ALICE]);
  });
});

describe('classifyError', () => {
  it.each([
    [{ status: 0, message: 'TypeError: Failed to fetch' }, 'transient', 'network'],
    [{ status: 408 }, 'transient', 'http_408'],
    [{ status: 429 }, 'transient', 'http_429'],
    [{ status: 502 }, 'transient', 'http_502'],
    [{ status: 503 }, 'transient', 'http_503'],
    [{ status: 504 }, 'transient', 'http_504'],
    [{ status: 404, code: 'PGRST202' }, 'permanent', 'http_404'],
    [{ status: 401 }, 'auth', 'unauthorized'],
    [{ status: 401, code: 'PGRST303' }, 'auth', 'unauthorized'],
    [{ status: 400, code: 'P0001', message: 'car_unavailable' }, 'permanent', 'car_unavailable'],
    [{ status: 400, code: '22023', message: 'bad' }, 'permanent', '22023'],
    [{ status: 409, code: '23P01', message: 'exclusion' }, 'permanent', '23P01'],
    [{ status: 403, code: '42501', message: 'denied' }, 'permanent', 'not_allowed'],
    [{ status: 400, statusCode: '413', message: 'too big' }, 'permanent', 'file_too_large'],
    [{ status: 400, statusCode: '415', message: 'x' }, 'permanent', 'unsupported_file_type'],
    [{ status: 403, statusCode: '403', message: 'policy' }, 'permanent', 'not_allowed'],
    [{ status: 500, code: 'XX000' }, 'transient', 'http_500'],
  ] as [ApiError, string, string][])('%o → %s %s', (error, kind, code) => {
    expect(classifyError(error)).toEqual({ kind, code });
  });
});

describe('backoffDelay', () => {
  it('starts at 200 ms, doubles, and is capped at 5 minutes', () => {
    expect([1, 2, 3, 4, 5].map(backoffDelay)).toEqual([200, 400, 800, 1600, 3200]);
    expect(backoffDelay(11)).toBe(204_800);
    expect(backoffDelay(12)).toBe(300_000);
    expect(backoffDelay(60)).toBe(300_000);
  });
});
