import { useEffect, useState } from 'react';

import type { LocalBooking } from '@/domain/local-booking';
import type { Car, Extra, InsuranceOption, Location } from '@/domain/rows';
import { db } from '@/infra/db';
import { BOOKINGS_PULLED_KEY } from '@/sync/bookings-sync';
import {
  fetchMyHandovers,
  readCachedHandovers,
  type HandoverWithLinks,
} from '@/sync/handovers-sync';
import { readMyReviews, reviewsByBooking, type MyReview } from '@/sync/my-bookings-sync';

import { entriesByBooking, type BookingEntries } from '@/features/bookings/booking-lists';

/**
 * What /mybookings reads from the device: the only module of src/features/bookings that holds
 * Dexie. The server side (pull, cancel, review) is src/sync/my-bookings-sync.ts and the outbox.
 */

/** The names the cards show, from the synced catalogue. */
export type CatalogueNames = {
  cars: Map<string, Car>;
  locations: Map<string, Location>;
  extras: Map<string, Extra>;
  insurance: Map<string, InsuranceOption>;
};

export type MyBookingsData = {
  bookings: LocalBooking[];
  entries: Map<string, BookingEntries>;
  reviews: Map<string, MyReview>;
  names: CatalogueNames;
};

export async function readMyBookingsData(userId: string): Promise<MyBookingsData> {
  const [bookings, entries, reviews, cars, locations, extras, insurance] = await Promise.all([
    db.bookings.where('user_id').equals(userId).toArray(),
    db.outbox.where('kind').anyOf(['create_booking', 'cancel_booking', 'submit_review']).toArray(),
    readMyReviews(userId),
    db.cars.toArray(),
    db.locations.toArray(),
    db.extras.toArray(),
    db.insurance.toArray(),
  ]);
  return {
    bookings,
    entries: entriesByBooking(entries),
    reviews: reviewsByBooking(reviews),
    names: {
      cars: new Map(cars.map((c) => [c.id, c])),
      locations: new Map(locations.map((l) => [l.id, l])),
      extras: new Map(extras.map((e) => [e.code, e])),
      insurance: new Map(insurance.map((i) => [i.code, i])),
    },
  };
}

/** When the bookings were last brought from the server (ISO), or null. */
export async function readLastRefresh(): Promise<string | null> {
  const value = (await db.meta.get(BOOKINGS_PULLED_KEY))?.value;
  return typeof value === 'string' ? value : null;
}

/** The creation time of the user's newest notification ('' when none). */
export async function readNewestNotificationAt(userId: string): Promise<string> {
  const rows = await db.notifications.where('user_id').equals(userId).toArray();
  return rows.reduce((max, n) => (n.created_at > max ? n.created_at : max), '');
}

/**
 * The pickup and return records of one of my bookings (docs/handovers.md): the last copy kept
 * on this device at once, then the server's when online. null while nothing is known.
 */
export function useMyHandovers(bookingId: string, online: boolean): HandoverWithLinks[] | null {
  const [records, setRecords] = useState<HandoverWithLinks[] | null>(null);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const cached = await readCachedHandovers(bookingId);
      if (!cancelled && cached) setRecords(cached);
      if (!online) return;
      const fresh = await fetchMyHandovers(bookingId);
      if (!cancelled && fresh.ok) setRecords(fresh.data);
    })();
    return () => {
      cancelled = true;
    };
  }, [bookingId, online]);
  return records;
}
