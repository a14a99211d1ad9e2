import Dexie, { type EntityTable } from 'dexie';

import type { BusyPeriod } from '@/domain/availability';
import type { LocalBooking } from '@/domain/local-booking';
import type { Car, Extra, InsuranceOption, Location, Notification } from '@/domain/rows';
import { CARS_TABLE, DEVICE_DB_NAME } from '@/infra/db-name';

export type OutboxKind =
  | 'upload_file'
  | 'create_booking'
  | 'cancel_booking'
  | 'submit_review'
  | 'mark_notification_read'
  | 'record_handover';

export type OutboxState = 'pending' | 'sending' | 'parked';

export type OutboxEntry = {
  /** Client-generated uuid; also the idempotency key of the write it carries. */
  id: string;
  kind: OutboxKind;
  payload: unknown;
  /** Ids of entries that must succeed first (a booking waits for its licence upload). */
  depends_on: string[];
  /** Insertion order: the queue is FIFO. */
  seq: number;
  attempts: number;
  next_attempt_at: number;
  state: OutboxState;
  last_error: string | null;
  created_at: number;
  /**
   * Whose write this is: the signed-in user it must be sent as, or null for a guest's booking
   * (sent with the anon key even when someone is signed in). Absent on entries queued before
   * the field existed: those go with whoever is signed in.
   */
  owner?: string | null;
};

/**
 * Files waiting to be uploaded are kept as Blobs until their upload lands (a booking's documents,
 * or the photos of a pickup or return record: `handovers`).
 */
export type LocalFile = {
  id: string;
  bucket: 'licenses' | 'flight-documents' | 'handovers';
  path: string;
  name: string;
  type: string;
  blob: Blob;
};

export type Meta = { key: string; value: unknown };

export class KiraaDb extends Dexie {
  cars!: EntityTable<Car, 'id'>;
  locations!: EntityTable<Location, 'id'>;
  extras!: EntityTable<Extra, 'code'>;
  insurance!: EntityTable<InsuranceOption, 'code'>;
  busy!: EntityTable<BusyPeriod, 'key'>;
  bookings!: EntityTable<LocalBooking, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  files!: EntityTable<LocalFile, 'id'>;
  notifications!: EntityTable<Notification, 'id'>;
  meta!: EntityTable<Meta, 'key'>;

  constructor(name = DEVICE_DB_NAME) {
    // No in-memory cache of query results: live queries re-read IndexedDB after each write. The
    // cache's bookkeeping cost ≈ 1.5 Lighthouse points on a first visit to /cars (docs/pwa.md),
    // and nothing here relies on its optimistic results.
    super(name, { cache: 'disabled' });
    this.version(1).stores({
      [CARS_TABLE]: 'id, slug, updated_at, daily_rate_dzd, transmission, passengers, active',
      locations: 'id, kind, active',
      extras: 'code',
      insurance: 'code',
      busy: 'key, car_id, start_at, end_at',
      bookings: 'id, reference, user_id, status, sync_state, start_at, created_at',
      outbox: 'id, seq, state, kind, next_attempt_at',
      files: 'id',
      notifications: 'id, user_id, created_at, is_read',
      meta: 'key',
    });
  }
}

export const db = new KiraaDb();

/** How many writes wait in the outbox (the app starts the outbox engine only when some do). */
export function queuedWrites(): Promise<number> {
  return db.outbox.count();
}

/**
 * Guest bookings stored here whose status the server may still change (the app then starts the
 * 'news' task that refreshes them; the exact rule is src/sync/news.ts `isLiveGuestBooking`).
 */
export function liveGuestBookingCount(): Promise<number> {
  return db.bookings
    .filter(
      (b) =>
        b.user_id === null &&
        ['pending', 'reserved', 'in_progress'].includes(b.status) &&
        b.sync_state !== 'queued' &&
        b.sync_state !== 'needs_attention',
    )
    .count();
}
