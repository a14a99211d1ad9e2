import type { BusyPeriod } from '@/domain/availability';
import type { LocalBooking } from '@/domain/local-booking';
import type { Car, Extra, InsuranceOption, Location, Settings } from '@/domain/rows';
import { db, type OutboxEntry } from '@/infra/db';
import { readPricingSettings } from '@/sync/bookings-sync';
import { LAST_SYNC_KEY } from '@/sync/outbox/entry';

/**
 * The booking feature's reads of the device's database (Dexie), apart from its server calls
 * (booking-api.ts): the wizard draws its first step from these alone, with no supabase-js loaded.
 */

/** What the wizard reads from the synced catalogue (Dexie). */
export type BookingCatalogue = {
  cars: Car[];
  locations: Location[];
  extras: Extra[];
  insurance: InsuranceOption[];
  busy: BusyPeriod[];
  settings: Pick<Settings, 'driver_per_day_dzd' | 'booking_horizon_days'> | null;
};

export async function readBookingCatalogue(): Promise<BookingCatalogue> {
  const [cars, locations, extras, insurance, busy, settings] = await Promise.all([
    db.cars.toArray(),
    db.locations.toArray(),
    db.extras.toArray(),
    db.insurance.toArray(),
    db.busy.toArray(),
    readPricingSettings(),
  ]);
  return { cars, locations, extras, insurance, busy, settings };
}

/** A booking this device knows, or null. */
export async function readLocalBooking(id: string): Promise<LocalBooking | null> {
  return id ? ((await db.bookings.get(id)) ?? null) : null;
}

/** The booking of this reference stored on this device, or null. */
export async function readLocalBookingByReference(reference: string): Promise<LocalBooking | null> {
  return (await db.bookings.where('reference').equals(reference).first()) ?? null;
}

/** Every guest booking stored on this device (made here, or found by a lookup). */
export function readStoredGuestBookings(): Promise<LocalBooking[]> {
  return db.bookings.filter((b) => b.user_id === null).toArray();
}

/** The guest bookings made on this device, newest first. */
export function readGuestBookings(): Promise<LocalBooking[]> {
  return db.bookings
    .orderBy('created_at')
    .reverse()
    .filter((b) => b.is_guest && !b.looked_up)
    .toArray();
}

/**
 * Forgets a booking that reached the server from this device (a borrowed phone): the copy here
 * goes, the booking stays with the agency and can be found again by reference. Refused (false)
 * while something of it waits to be sent.
 */
export async function forgetGuestBooking(bookingId: string): Promise<boolean> {
  return db.transaction('rw', db.bookings, db.outbox, async () => {
    const waiting = (await db.outbox.toArray()).some(
      (e) =>
        (e.payload as { id?: string; booking_id?: string }).id === bookingId ||
        (e.payload as { booking_id?: string }).booking_id === bookingId,
    );
    if (waiting) return false;
    await db.bookings.delete(bookingId);
    return true;
  });
}

/** The outbox's refused creation of this booking, or null. */
export async function readParkedCreate(bookingId: string): Promise<OutboxEntry | null> {
  const parked = await db.outbox.where('state').equals('parked').toArray();
  return (
    parked.find(
      (e) => e.kind === 'create_booking' && (e.payload as { id?: string }).id === bookingId,
    ) ?? null
  );
}

/** The outbox, oldest first. */
export function readOutboxQueue(): Promise<OutboxEntry[]> {
  return db.outbox.orderBy('seq').toArray();
}

/** When the outbox last reached the server (ISO), or undefined. */
export async function readLastSync(): Promise<string | undefined> {
  return (await db.meta.get(LAST_SYNC_KEY))?.value as string | undefined;
}
