import { Trans, useLingui } from '@lingui/react/macro';
import { memo } from 'react';

import {
  filterFeatures,
  passengerOptions,
  transmissionOptions,
  type CarFilters,
  type PassengersFilter,
  type TransmissionFilter,
} from '@/features/catalogue/filters';
import { featureIcons, type CarLabels } from '@/features/catalogue/labels';
import { inputClassName, RentalDates } from '@/features/catalogue/rental-dates';
import { cn } from '@/ui/cn';

type Props = {
  filters: CarFilters;
  onChange: (patch: Partial<CarFilters>) => void;
  labels: CarLabels;
  /** Cheapest and dearest daily rates of the fleet (placeholders of the price inputs). */
  bounds: { min: number; max: number } | null;
};

function parseAmount(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

const chipClassName =
  'inline-flex h-10 cursor-pointer items-center justify-center gap-1.5 rounded-lg border border-line bg-surface px-3 text-sm ' +
  'has-[:checked]:border-primary has-[:checked]:bg-primary-soft has-[:checked]:text-primary-text has-[:checked]:font-medium ' +
  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring';

/** The text search of /cars: always visible, also on a phone where the filters fold away. */
export function CarSearchField({
  value,
  onChange,
}: {
  value: string;
  onChange: (q: string) => void;
}) {
  const { t } = useLingui();
  return (
    <form role="search" onSubmit={(event) => event.preventDefault()}>
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">{t`Rechercher`}</span>
        <input
          type="search"
          name="q"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t`Marque, modèle, type…`}
          autoComplete="off"
          enterKeyHint="search"
          className={inputClassName}
        />
      </label>
    </form>
  );
}

/** The filters of /cars (docs/product.md §9); every control is labelled. */
export const CarFiltersForm = memo(function CarFiltersForm({
  filters,
  onChange,
  labels,
  bounds,
}: Props) {
  const { t } = useLingui();

  const transmissionLabel = (value: TransmissionFilter) =>
    value === 'all' ? t`Toutes` : labels.transmission(value);
  const passengersLabel = (value: PassengersFilter) => (value === 'all' ? t`Tous` : String(value));

  return (
    <form
      aria-label={t`Filtres des voitures`}
      className="flex flex-col gap-5"
      onSubmit={(event) => event.preventDefault()}
    >
      <RentalDates
        start={filters.start}
        end={filters.end}
        onChange={({ start, end }) => onChange({ start, end })}
      />

      <fieldset className="min-w-0">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Prix par jour (DZD)</Trans>
        </legend>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex min-w-0 flex-col gap-1 text-xs text-fg-muted">
            <Trans>Minimum</Trans>
            <input
              type="number"
              name="min"
              inputMode="numeric"
              min={0}
              step={500}
              value={filters.minPrice ?? ''}
              placeholder={bounds ? String(bounds.min) : undefined}
              onChange={(e) => onChange({ minPrice: parseAmount(e.target.value) })}
              className={inputClassName}
            />
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-xs text-fg-muted">
            <Trans>Maximum</Trans>
            <input
              type="number"
              name="max"
              inputMode="numeric"
              min={0}
              step={500}
              value={filters.maxPrice ?? ''}
              placeholder={bounds ? String(bounds.max) : undefined}
              onChange={(e) => onChange({ maxPrice: parseAmount(e.target.value) })}
              className={inputClassName}
            />
          </label>
        </div>
      </fieldset>

      <fieldset className="min-w-0">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Boîte de vitesses</Trans>
        </legend>
        <div className="grid grid-cols-3 gap-2">
          {transmissionOptions.map((value) => (
            <label key={value} className={chipClassName}>
              <input
                type="radio"
                name="transmission"
                value={value}
                checked={filters.transmission === value}
                onChange={() => onChange({ transmission: value })}
                className="sr-only"
              />
              {transmissionLabel(value)}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="min-w-0">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Passagers (au moins)</Trans>
        </legend>
        <div className="grid grid-cols-4 gap-2">
          {passengerOptions.map((value) => (
            <label key={value} className={chipClassName}>
              <input
                type="radio"
                name="passengers"
                value={value}
                checked={filters.passengers === value}
                onChange={() => onChange({ passengers: value })}
                className="sr-only"
              />
              {passengersLabel(value)}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="min-w-0">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Équipements</Trans>
        </legend>
        <div className="grid grid-cols-1 gap-2 xs:grid-cols-2 lg:grid-cols-1">
          {filterFeatures.map((feature) => {
            const Icon = featureIcons[feature];
            const checked = filters.features.includes(feature);
            return (
              <label key={feature} className={cn(chipClassName, 'justify-start')}>
                <input
                  type="checkbox"
                  name="features"
                  value={feature}
                  checked={checked}
                  onChange={() =>
                    onChange({
                      features: checked
                        ? filters.features.filter((f) => f !== feature)
                        : filterFeatures.filter(
                            (f) => f === feature || filters.features.includes(f),
                          ),
                    })
                  }
                  className="size-4 accent-primary"
                />
                <Icon size={16} />
                {labels.feature(feature)}
              </label>
            );
          })}
        </div>
      </fieldset>
    </form>
  );
});
