import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';

import { buildBusyIndex, type BusyIndex } from '@/domain/availability';
import { localized } from '@/domain/locale';
import type { Locale } from '@/domain/locale';
import type { Car, Location } from '@/domain/rows';
import { keepRunning } from '@/infra/background';
import { db } from '@/infra/db';
import { useOnline } from '@/infra/network';
import type { CachedReviews } from '@/sync/catalogue-source';
import {
  catalogueSync,
  idleStatus,
  reviewsKey,
  STATUS_KEY,
  type CatalogueSyncStatus,
} from '@/sync/catalogue-sync';

/**
 * The catalogue as the screens read it: only from Dexie, live (a sync that lands re-renders the
 * screen). `undefined` means "still reading IndexedDB", never "nothing there".
 */

/** Every car on the device, retired ones included (the filters hide them). */
export function useAllCars(): Car[] | undefined {
  return useLiveQuery(() => db.cars.toArray(), []);
}

/** One car by its slug: undefined while reading, null when the device does not know it. */
export function useCarBySlug(slug: string): Car | null | undefined {
  return useLiveQuery(
    async () => (await db.cars.where('slug').equals(slug).first()) ?? null,
    [slug],
  );
}

/** Active pickup places, airports first, then by name in the current language. */
export function useActiveLocations(locale: string): Location[] | undefined {
  const locations = useLiveQuery(() => db.locations.toArray(), []);
  return useMemo(() => {
    if (!locations) return undefined;
    const collator = new Intl.Collator(locale);
    return locations
      .filter((l) => l.active)
      .sort(
        (a, b) =>
          (a.kind === b.kind ? 0 : a.kind === 'airport' ? -1 : 1) ||
          collator.compare(
            localized(a.name, locale as Locale),
            localized(b.name, locale as Locale),
          ),
      );
  }, [locations, locale]);
}

/** Busy periods of every car, indexed for availability checks; undefined while reading. */
export function useBusyIndex(): BusyIndex | undefined {
  const periods = useLiveQuery(() => db.busy.toArray(), []);
  return useMemo(() => (periods ? buildBusyIndex(periods) : undefined), [periods]);
}

/** How fresh the catalogue is (last success, running, last error). */
export function useCatalogueStatus(): CatalogueSyncStatus {
  const row = useLiveQuery(() => db.meta.get(STATUS_KEY), []);
  return useMemo(
    () => ({ ...idleStatus, ...(row?.value as Partial<CatalogueSyncStatus> | undefined) }),
    [row],
  );
}

/** A car's cached reviews, refreshed from the server when the page opens online. */
export function useCarReviews(carId: string | undefined): CachedReviews | null | undefined {
  const online = useOnline();
  useEffect(() => {
    if (carId && online) void catalogueSync.refreshReviews(carId);
  }, [carId, online]);
  return useLiveQuery(
    async () =>
      carId
        ? (((await db.meta.get(reviewsKey(carId)))?.value as CachedReviews | undefined) ?? null)
        : null,
    [carId],
  );
}

/** Makes sure the catalogue sync runs (on start, online, visible, timer); idempotent. */
export function useCatalogueSync(): void {
  useEffect(() => {
    keepRunning('catalogue');
  }, []);
}

/** Asks for a sync now (the "try again" button). */
export function retryCatalogueSync(): void {
  void catalogueSync.sync();
}
