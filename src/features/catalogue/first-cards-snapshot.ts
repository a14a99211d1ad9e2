import { useEffect } from 'react';

import { locales, type Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import type { Car } from '@/domain/rows';
import { FIRST_CARDS_SNAPSHOT_KEY } from '@/sync/catalogue-prefetch';

import { sortCars } from '@/features/catalogue/filters';
import { FIRST_CARD_LISTS } from '@/features/catalogue/first-cards';

/** A card's texts that need Intl: its price and its rating, as CarCard shows them. */
export type FirstCardTexts = { price: string; rating: string };

/**
 * A first card as index.html draws it on a repeat visit (scripts/first-cards.ts): the fields its
 * tokens read, and its texts in every language, so the drawing neither sorts (the collator) nor
 * formats (the currency's number format): ≈ 100–200 ms of a slow phone's main thread before the
 * first car (docs/performance.md, "A repeat visit's main thread").
 */
export type FirstCardRow = Pick<
  Car,
  | 'id'
  | 'slug'
  | 'name'
  | 'year'
  | 'passengers'
  | 'body'
  | 'fuel'
  | 'transmission'
  | 'daily_rate_dzd'
  | 'rating_avg'
  | 'rating_count'
  | 'active'
  | 'images'
> & { texts: Record<Locale, FirstCardTexts> };

/** As many cards as the longest first list draws (/cars: 12; /home takes the first 6). */
const SNAPSHOT_SIZE = Math.max(...Object.values(FIRST_CARD_LISTS).map((list) => list.limit));

/** A rating as Stars writes it, per language; created once (a format costs ms on a slow phone). */
const ratingFormats = new Map<Locale, Intl.NumberFormat>();
function formatRating(value: number, locale: Locale): string {
  let format = ratingFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    ratingFormats.set(locale, format);
  }
  return format.format(value);
}

/** The cars the lists show first (active, default order), ready to draw in any language. */
export function firstCardsSnapshot(cars: readonly Car[]): FirstCardRow[] {
  return sortCars(
    cars.filter((car) => car.active),
    'recommended',
  )
    .slice(0, SNAPSHOT_SIZE)
    .map((car) => {
      // What the drawing script rounds (and Stars shows): one decimal.
      const rating = Math.round(Number(car.rating_avg) * 10) / 10;
      return {
        id: car.id,
        slug: car.slug,
        name: car.name,
        year: car.year,
        passengers: car.passengers,
        body: car.body,
        fuel: car.fuel,
        transmission: car.transmission,
        daily_rate_dzd: car.daily_rate_dzd,
        rating_avg: car.rating_avg,
        rating_count: car.rating_count,
        active: car.active,
        images: car.images.slice(0, 1),
        texts: Object.fromEntries(
          locales.map((locale) => [
            locale,
            {
              price: formatDzd(car.daily_rate_dzd, locale),
              rating: formatRating(rating, locale),
            },
          ]),
        ) as Record<Locale, FirstCardTexts>,
      };
    });
}

/**
 * For the page whose list is on screen (`shown`, /cars or /home): the next visit's first cards
 * are kept from the device's `cars`. Not in the first screen's own modules (cards-placeholder.tsx):
 * the sorting and formatting it needs would weigh on /home's first load.
 */
export function useSaveFirstCards(shown: boolean, cars: readonly Car[] | undefined): void {
  useEffect(() => {
    if (shown && cars) saveFirstCardsSnapshot(cars);
  }, [shown, cars]);
}

/** Keeps the next visit's first cards in step with the device's catalogue (`cars`). */
export function saveFirstCardsSnapshot(cars: readonly Car[]): void {
  try {
    const value = JSON.stringify(firstCardsSnapshot(cars));
    if (localStorage.getItem(FIRST_CARDS_SNAPSHOT_KEY) !== value) {
      localStorage.setItem(FIRST_CARDS_SNAPSHOT_KEY, value);
    }
  } catch {
    // Storage full or blocked: the next visit reads the device's cars from IndexedDB instead.
  }
}
