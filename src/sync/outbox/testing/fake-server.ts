/**
 * Unit-test fixtures of the outbox: an in-memory server with the real one's idempotency rules
 * (behind the transport interface, as supabase-js is in the app) and queued bookings.
 */
import { afterEach, beforeEach } from 'vitest';

import type { BookingRequest } from '@/domain/booking-request';
import type { HandoverRequest } from '@/domain/handover';
import type { LocalBooking } from '@/domain/local-booking';
import { db, type LocalFile } from '@/infra/db';
import type { MarkNotificationReadPayload } from '@/sync/outbox/entry';
import type { ApiError } from '@/sync/outbox/errors';
import type { CallResult, OutboxTransport } from '@/sync/outbox/transport';

export const price = {
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

export const CAR = '11111111-1111-4111-8111-111111111111';
export const LOC = '22222222-2222-4222-8222-222222222222';

export function makeBooking(id: string, reference = 'KR-0000-0001', carId = CAR) {
  const payload: BookingRequest = {
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
    locale: 'fr',
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

export type Call = { op: string; key: string; user?: string | null };

/** An in-memory server with the real one's idempotency rules. */
export class FakeServer implements OutboxTransport {
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
  /** Bookings reported refused (`report_refused_booking`), by id. */
  refusalReports: string[] = [];
  /** False: `report_refused_booking` gets no answer (503). */
  reportAnswers = true;
  /** Who the transport is signed in as (null: anon key only). */
  user: string | null = null;
  /** Pickup and return records, by id (`staff_record_handover`). */
  handovers = new Map<string, HandoverRequest>();
  /** RPCs whose next call lands but whose answer is lost (503 to the client). */
  loseAnswerOf = new Set<string>();

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
      const p = args.p as BookingRequest;
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
    if (fn === 'report_refused_booking') {
      const p = args.p as BookingRequest;
      this.refusalReports.push(p.id);
      if (!this.reportAnswers) return { data: null, error: { status: 503 } };
      if (p.reference === 'KR-0000-0TAK') {
        // Like reference_taken: a refusal the server does not record, raised as create does.
        return { data: null, error: { status: 400, code: 'P0001', message: 'reference_taken' } };
      }
      const existing = this.bookings.get(p.id);
      if (existing) {
        return {
          data: { status: 'created', booking: { ...p, ...existing, price } } as T,
          error: null,
        };
      }
      const code = !this.objects.has(`licenses/${p.license_path}`)
        ? 'licence_required'
        : this.takenCars.has(p.car_id)
          ? 'car_unavailable'
          : null;
      if (!code) {
        return {
          data: null,
          error: { status: 400, code: 'P0001', message: 'booking_not_refused' },
        };
      }
      return {
        data: { status: 'refused', reference: p.reference, code, notified: !!p.guest_email } as T,
        error: null,
      };
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
    if (fn === 'staff_record_handover') {
      const p = args.p as HandoverRequest;
      if (!this.handovers.has(p.id)) {
        const taken = [...this.handovers.values()].some(
          (h) => h.booking_id === p.booking_id && h.kind === p.kind,
        );
        if (taken) {
          return { data: null, error: { status: 400, code: 'P0001', message: 'handover_exists' } };
        }
        const missing = p.photos.find((photo) => !this.objects.has(`handovers/${photo.path}`));
        if (missing) {
          return { data: null, error: { status: 400, code: 'P0001', message: 'photo_missing' } };
        }
        this.handovers.set(p.id, p);
      }
      if (this.loseAnswerOf.delete(fn)) return { data: null, error: { status: 503 } };
      return { data: this.handovers.get(p.id) as T, error: null };
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

export const ID1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
export const ID2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';

/** The test's server and clock, fresh (with an empty database) for each test. */
export type OutboxTest = { server: FakeServer; clock: number; now: () => number };

export function outboxTestbed(): OutboxTest {
  const t: OutboxTest = {
    server: new FakeServer(),
    clock: 0,
    now: () => t.clock,
  };
  beforeEach(async () => {
    await Promise.all(db.tables.map((table) => table.clear()));
    t.server = new FakeServer();
    t.clock = Date.parse('2030-01-01T00:00:00Z');
  });
  afterEach(async () => {
    await Promise.all(db.tables.map((table) => table.clear()));
  });
  return t;
}
