import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';

import { useOnline } from '@/infra/network';

import { CarCard } from '@/features/catalogue/car-card';
import { useFirstCardsDone } from '@/features/catalogue/cards-placeholder';
import { FeaturedSkeleton } from '@/features/catalogue/featured-skeleton';
import { sortCars } from '@/features/catalogue/filters';
import { FEATURED_CARS } from '@/features/catalogue/first-cards';
import { useSaveFirstCards } from '@/features/catalogue/first-cards-snapshot';
import { useCarLabels } from '@/features/catalogue/labels';
import {
  useActiveLocations,
  useAllCars,
  useCatalogueStatus,
  useCatalogueSync,
} from '@/features/catalogue/catalogue-api';
import { firstCatalogueOnItsWay } from '@/features/catalogue/catalogue-unavailable';

/** The parts of /home that read the device's catalogue (loaded after the first paint). */

/** The best-rated cars; starts the catalogue sync (a first visit fills the device here). */
export function FeaturedCars() {
  useCatalogueSync();
  const labels = useCarLabels();
  const allCars = useAllCars();
  const featured = useMemo(
    () =>
      allCars
        ? sortCars(
            allCars.filter((car) => car.active),
            'recommended',
          ).slice(0, FEATURED_CARS)
        : [],
    [allCars],
  );
  const status = useCatalogueStatus();
  const online = useOnline();
  // A first visit's catalogue is on its way until its first sync ends (as on /cars).
  const loading = allCars === undefined || firstCatalogueOnItsWay(allCars, status, online);
  useFirstCardsDone(!loading);
  useSaveFirstCards(!loading, allCars);
  if (featured.length > 0) {
    return (
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="featured-cars">
        {featured.map((car) => (
          <CarCard key={car.id} car={car} labels={labels} search="" />
        ))}
      </ul>
    );
  }
  if (loading) return <FeaturedSkeleton />;
  return (
    <p className="text-fg-muted">
      <Trans>Le catalogue s’affichera dès la première connexion à internet.</Trans>
    </p>
  );
}

/** The pickup places of the hero's search, airports first. */
export function PlaceOptions() {
  const { t } = useLingui();
  const labels = useCarLabels();
  const locations = useActiveLocations(labels.locale);
  return (['airport', 'city'] as const).map((kind) => {
    const group = (locations ?? []).filter((l) => l.kind === kind);
    if (!group.length) return null;
    return (
      <optgroup key={kind} label={kind === 'airport' ? t`Aéroports` : t`Villes`}>
        {group.map((place) => (
          <option key={place.id} value={place.id}>
            {labels.localized(place.name)}
            {place.iata ? ` (${place.iata})` : ''}
          </option>
        ))}
      </optgroup>
    );
  });
}
