import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useId, useMemo, useState } from 'react';

import type { BusyIndex } from '@/domain/availability';
import { BRAND_NAME } from '@/domain/brand';
import { useScreenContent } from '@/infra/first-screen';
import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';
import { cn } from '@/ui/cn';
import { FilterIcon } from '@/ui/icons';

import { CarCard } from '@/features/catalogue/car-card';
import { CarFiltersForm, CarSearchField } from '@/features/catalogue/car-filters';
import { CardsPlaceholder, useFirstCardsDone } from '@/features/catalogue/cards-placeholder';
import { CatalogueStatus, CatalogueUpdating } from '@/features/catalogue/catalogue-status';
import {
  CatalogueUnavailable,
  catalogueUnavailable,
  firstCatalogueOnItsWay,
} from '@/features/catalogue/catalogue-unavailable';
import {
  activeFilterCount,
  buildSearchIndex,
  emptyFilters,
  filterCars,
  priceBounds,
  rentalWindow,
  tripDays,
  sortOptions,
  type CarFilters,
  type SortOrder,
} from '@/features/catalogue/filters';
import { EAGER_CARDS, PAGE_SIZE } from '@/features/catalogue/first-cards';
import { useSaveFirstCards } from '@/features/catalogue/first-cards-snapshot';
import { useCarLabels } from '@/features/catalogue/labels';
import {
  useAllCars,
  useBusyIndex,
  useCatalogueStatus,
  useCatalogueSync,
} from '@/features/catalogue/catalogue-api';
import { useUrlFilters } from '@/features/catalogue/use-url-filters';

const noBusy: BusyIndex = new Map();

/** The query a car card carries to the details page (and from there to the wizard). */
function carrySearch(filters: CarFilters): string {
  const params = new URLSearchParams();
  if (filters.start) params.set('start', filters.start);
  if (filters.end) params.set('end', filters.end);
  if (filters.pickup) params.set('pickup', filters.pickup);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** /cars: the fleet from IndexedDB, searched and filtered in memory, filters in the URL. */
export default function CarsPage() {
  useCatalogueSync();
  const { t } = useLingui();
  const labels = useCarLabels();
  const online = useOnline();
  const status = useCatalogueStatus();
  const allCars = useAllCars();
  const busy = useBusyIndex();
  const [filters, update] = useUrlFilters();
  const [panelOpen, setPanelOpen] = useState(false);
  const panelId = useId();
  const titleId = useId();

  const cars = useMemo(() => allCars?.filter((car) => car.active), [allCars]);
  const search = useMemo(
    () => buildSearchIndex(cars ?? [], labels.locale, { body: labels.body }),
    [cars, labels],
  );
  const bounds = useMemo(() => priceBounds(cars ?? []), [cars]);
  // Busy periods matter only once dates are chosen: the list does not wait for them otherwise.
  const needsBusy = rentalWindow(filters) !== null;
  const days = tripDays(filters);
  const results = useMemo(
    () =>
      cars && (busy || !needsBusy)
        ? filterCars(cars, filters, { search, busy: busy ?? noBusy })
        : [],
    [cars, filters, search, busy, needsBusy],
  );
  const carry = carrySearch(filters);

  // Back to the first page of results whenever the results change.
  const [page, setPage] = useState({ results, size: PAGE_SIZE });
  const shown = page.results === results ? page.size : PAGE_SIZE;
  const showMore = useCallback(
    () => setPage({ results, size: shown + PAGE_SIZE }),
    [results, shown],
  );

  const filterCount = activeFilterCount(filters);
  const total = results.length;
  const nothingCached = cars !== undefined && cars.length === 0;
  const failed = nothingCached && catalogueUnavailable(status, online);
  const loading =
    cars === undefined ||
    (needsBusy && busy === undefined) ||
    firstCatalogueOnItsWay(cars, status, online);
  useScreenContent(!loading);
  useFirstCardsDone(!loading);
  useSaveFirstCards(!loading, allCars);

  return (
    <div className="flex flex-col gap-6">
      <title>{`${t`Nos voitures`} · ${BRAND_NAME}`}</title>
      <header className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold sm:text-3xl">
            <Trans>Nos voitures</Trans>
          </h1>
          <CatalogueUpdating />
        </div>
        <CatalogueStatus locale={labels.locale} />
      </header>

      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start lg:gap-8">
        <aside className="flex flex-col gap-3 lg:sticky lg:top-20">
          <CarSearchField value={filters.q} onChange={(q) => update({ q })} />
          <Button
            variant="secondary"
            className="lg:hidden"
            aria-expanded={panelOpen}
            aria-controls={panelId}
            onClick={() => setPanelOpen((open) => !open)}
          >
            <FilterIcon size={18} />
            {filterCount > 0 ? <Trans>Filtres ({filterCount})</Trans> : <Trans>Filtres</Trans>}
          </Button>
          <div
            id={panelId}
            className={cn(
              'rounded-xl border border-line bg-surface p-4 lg:block',
              !panelOpen && 'hidden',
            )}
          >
            <CarFiltersForm filters={filters} onChange={update} labels={labels} bounds={bounds} />
            {filterCount > 0 && (
              <Button
                variant="ghost"
                className="mt-4 w-full"
                onClick={() => update({ ...emptyFilters, sort: filters.sort })}
              >
                <Trans>Effacer les filtres</Trans>
              </Button>
            )}
          </div>
        </aside>

        <section aria-labelledby={titleId} className="flex min-w-0 flex-col gap-4">
          <h2 id={titleId} className="sr-only">
            <Trans>Résultats</Trans>
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status" aria-live="polite" className="font-medium" data-testid="result-count">
              {loading ? (
                ''
              ) : (
                <Plural value={total} _0="Aucune voiture" one="# voiture" other="# voitures" />
              )}
            </p>
            <SortSelect value={filters.sort} onChange={(sort) => update({ sort })} />
          </div>

          {failed ? (
            <CatalogueUnavailable online={online} />
          ) : loading ? (
            <CardsPlaceholder
              list="cars"
              count={6}
              className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
            />
          ) : results.length === 0 ? (
            <div className="flex flex-col items-start gap-3 rounded-xl border border-line bg-surface p-6">
              <p className="font-medium" data-testid="empty-message">
                <Trans>Aucune voiture ne correspond à vos critères</Trans>
              </p>
              {filterCount > 0 && (
                <Button
                  variant="secondary"
                  onClick={() => update({ ...emptyFilters, sort: filters.sort })}
                >
                  <Trans>Effacer les filtres</Trans>
                </Button>
              )}
            </div>
          ) : (
            <>
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="car-list">
                {results.slice(0, shown).map((car, index) => (
                  <CarCard
                    key={car.id}
                    car={car}
                    labels={labels}
                    search={carry}
                    eager={index < EAGER_CARDS}
                    priority={index === 0}
                    days={days}
                  />
                ))}
              </ul>
              {results.length > shown && (
                <Button variant="secondary" className="self-center" onClick={showMore}>
                  <Trans>
                    Afficher plus ({shown} sur {total})
                  </Trans>
                </Button>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function SortSelect({ value, onChange }: { value: SortOrder; onChange: (v: SortOrder) => void }) {
  const { t } = useLingui();
  const names: Record<SortOrder, string> = {
    recommended: t`Les mieux notées`,
    price_asc: t`Prix croissant`,
    price_desc: t`Prix décroissant`,
    newest: t`Les plus récentes`,
  };
  return (
    <label className="flex max-w-full min-w-0 flex-wrap items-center gap-2 text-sm">
      <span className="text-fg-muted">
        <Trans>Trier par</Trans>
      </span>
      <select
        name="sort"
        value={value}
        onChange={(e) => onChange(e.target.value as SortOrder)}
        className="h-10 max-w-full min-w-0 rounded-lg border border-line bg-surface px-2 text-sm"
      >
        {sortOptions.map((option) => (
          <option key={option} value={option}>
            {names[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
