/**
 * `create_booking`: idempotent on the booking's id (the server returns the stored row), which
 * replaces the local copy; the files it carried are then forgotten. A permanent refusal is
 * reported with `report_refused_booking`, so the person hears of it by mail (or notification)
 * even after closing the app (docs/offline-sync.md, "Refused at sync").
 */
import type { BookingRequest } from '@/domain/booking-request';
import { syncStateOf, type LocalBooking } from '@/domain/local-booking';
import type { Booking } from '@/domain/rows';
import { db } from '@/infra/db';
import { setBookingState } from '@/sync/outbox/booking-state';
import { classifyError, permanent, type Outcome } from '@/sync/outbox/errors';
import type { OutboxTransport } from '@/sync/outbox/transport';

/** The answers of `report_refused_booking(p)` (it raises `booking_not_refused` otherwise). */
export type RefusalReport =
  | { status: 'created'; booking: Booking }
  | { status: 'refused'; reference: string; code: string; notified: boolean };

async function saveCreated(p: BookingRequest, row: Booking): Promise<void> {
  await db.transaction('rw', db.bookings, db.files, async () => {
    const local = await db.bookings.get(p.id);
    await db.bookings.put({
      ...(local as LocalBooking),
      ...row,
      sync_state: syncStateOf(row.status),
      sync_error: null,
      refusal_report: undefined,
      is_guest: local?.is_guest ?? row.user_id === null,
    });
    await db.files.bulkDelete(
      (await db.files.toArray()).filter((f) => f.path.startsWith(`${p.id}/`)).map((f) => f.id),
    );
  });
}

/** Creates the booking; `report: false` only replays it (an upload checking it landed). */
export async function sendCreate(
  t: OutboxTransport,
  p: BookingRequest,
  report = true,
): Promise<Outcome> {
  await setBookingState(p.id, { sync_state: 'sending' });
  const { data, error } = await t.rpc<Booking>('create_booking', { p });
  if (!error && data) {
    await saveCreated(p, data);
    return { ok: true };
  }
  const failure = classifyError(error ?? { status: 500 });
  if (failure.kind !== 'permanent') {
    await setBookingState(p.id, {
      sync_state: 'queued',
      sync_error: failure.kind === 'deferred' ? failure.code : null,
    });
    return { ok: false, failure };
  }
  return report ? reportRefusal(t, p, failure.code) : { ok: false, failure };
}

/**
 * Tells the server that this device's booking was refused, so it tells the person: the server
 * checks the same payload again and answers that it created it after all (then it is synced),
 * that it would take it now (`booking_not_refused`: create it again), or that it refused it and
 * whether the person was notified (docs/decisions.md, "Refused at sync"). Without an answer
 * (offline, a limit) the refusal stands and is reported on a later flush
 * (`refusal_report: 'pending'`).
 */
export async function reportRefusal(
  t: OutboxTransport,
  p: BookingRequest,
  code: string,
): Promise<Outcome> {
  const { data, error } = await t.rpc<RefusalReport>('report_refused_booking', { p });
  if (error || !data) {
    const failure = classifyError(error ?? { status: 500 });
    if (failure.code === 'booking_not_refused') {
      await setBookingState(p.id, { status: 'queued', sync_state: 'queued', sync_error: null });
      return { ok: false, failure: { kind: 'transient', code: 'booking_not_refused' } };
    }
    // No answer (offline, a limit): told on a later flush. A refusal the server does not record
    // (a malformed request, a reference taken: the device fixes those) is shown here only.
    if (failure.kind !== 'permanent') await db.bookings.update(p.id, { refusal_report: 'pending' });
    return permanent(code);
  }
  if (data.status === 'created') {
    await saveCreated(p, data.booking);
    return { ok: true };
  }
  await db.bookings.update(p.id, { refusal_report: data.notified ? 'notified' : 'reported' });
  return permanent(data.code || code);
}
