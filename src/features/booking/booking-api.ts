import type { BusyPeriod } from '@/domain/availability';
import { quoteOf, type QuoteRequest } from '@/domain/booking-request';
import type { LocalBooking } from '@/domain/local-booking';
import type {
  Booking,
  Car,
  Extra,
  InsuranceOption,
  Location,
  PriceBreakdown,
  Settings,
} from '@/domain/rows';
import { db, type OutboxEntry } from '@/infra/db';
import { supabase } from '@/infra/supabase';
import { mergeServerBookings, readPricingSettings } from '@/sync/bookings-sync';
import { LAST_SYNC_KEY } from '@/sync/outbox/entry';
import { classifyError, type ApiError } from '@/sync/outbox/errors';

/**
 * The booking feature's calls to the server and reads of the device's database: the only module
 * of src/features/booking (with draft-store.ts, the draft's own storage) that holds the client or
 * Dexie. Writes go through the outbox (src/sync/outbox).
 */

/** What the wizard reads from the synced catalogue (Dexie). */
export type BookingCatalogue = {
  cars: Car[];
  locations: Location[];
  extras: Extra[];
  insurance: InsuranceOption[];
  busy: BusyPeriod[];
  settings: Pick<Settings, 'driver_per_day_dzd'> | null;
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

export type ServerQuote =
  { ok: true; price: PriceBreakdown } | { ok: false; transient: boolean; code: string };

/** `quote_booking`: the server's (authoritative) price of a request. */
export async function quotePrice(request: QuoteRequest): Promise<ServerQuote> {
  try {
    const { data, error, status } = await supabase.rpc('quote_booking', { p: quoteOf(request) });
    if (error || !data) {
      const failure = classifyError(error ? { ...(error as ApiError), status } : { status });
      return { ok: false, transient: failure.kind !== 'permanent', code: failure.code };
    }
    return { ok: true, price: data as PriceBreakdown };
  } catch (error) {
    return { ok: false, transient: true, code: String(error) };
  }
}

export type GuestLookup =
  | { kind: 'found'; booking: Booking }
  | { kind: 'not_found' }
  | { kind: 'rate_limited' }
  | { kind: 'error'; code: string };

/** Looks a guest booking up by reference and email or phone; a booking found is kept here. */
export async function lookupGuestBooking(reference: string, contact: string): Promise<GuestLookup> {
  const { data, error, status } = await supabase.rpc('find_guest_booking', { reference, contact });
  if (error) {
    const failure = classifyError({ ...(error as ApiError), status });
    return failure.code === 'rate_limited'
      ? { kind: 'rate_limited' }
      : { kind: 'error', code: failure.code };
  }
  const row = (Array.isArray(data) ? data[0] : data) as Booking | null | undefined;
  if (!row || !row.id) return { kind: 'not_found' };
  await mergeServerBookings([row], { isGuest: true });
  return { kind: 'found', booking: row };
}

/** A booking this device knows, or null. */
export async function readLocalBooking(id: string): Promise<LocalBooking | null> {
  return id ? ((await db.bookings.get(id)) ?? null) : null;
}

/** The guest bookings made on this device, newest first. */
export function readGuestBookings(): Promise<LocalBooking[]> {
  return db.bookings
    .orderBy('created_at')
    .reverse()
    .filter((b) => b.is_guest)
    .toArray();
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
