import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import { Link } from 'react-router-dom';

import { formatDzd } from '@/domain/money';
import type { Car } from '@/domain/rows';
import { CarPicture } from '@/ui/car-picture';
import { FuelIcon, GearIcon, PeopleIcon } from '@/ui/icons';

import type { CarLabels } from '@/features/catalogue/labels';
import { Stars } from '@/features/catalogue/stars';

type Props = {
  car: Car;
  labels: CarLabels;
  /** Query string carried to the details page (dates and place), e.g. "?start=…". */
  search: string;
  /** The first cards of a list load their picture eagerly (above the fold). */
  eager?: boolean;
  /** The list's first card: its picture is the page's largest paint (CarPicture's `priority`). */
  priority?: boolean;
  /** The days the chosen dates bill, when there are dates: the trip's total is shown too. */
  days?: number | null;
};

/**
 * The trip's total for the chosen dates beside the daily rate: the daily rate times the days
 * (before options, delivery and a driver, which the wizard adds), e.g. "10 500 DZD pour 3 jours".
 */
export function TripTotal({
  dailyRate,
  days,
  locale,
  className,
}: {
  dailyRate: number;
  days: number;
  locale: CarLabels['locale'];
  className?: string;
}) {
  const trip = formatDzd(dailyRate * days, locale);
  return (
    <span className={className} data-testid="trip-total">
      {plural(days, { one: `${trip} pour # jour`, other: `${trip} pour # jours` })}
    </span>
  );
}

/**
 * One car in a list. Memoised: a filter change re-renders only the cards that appear, not the
 * ones already on screen (same car row, same labels, same query).
 */
export const CarCard = memo(function CarCard({
  car,
  labels,
  search,
  eager = false,
  priority = false,
  days = null,
}: Props) {
  const { t } = useLingui();
  const price = formatDzd(car.daily_rate_dzd, labels.locale);
  const count = car.rating_count ?? 0;
  const { name, passengers } = car;
  return (
    <li className="relative flex flex-col overflow-hidden rounded-xl border border-line bg-surface shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <CarPicture
        src={car.images[0]}
        alt={t`${name}, vue principale`}
        eager={eager}
        priority={priority}
        iconSize={48}
        className="w-full"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="text-base font-semibold">
          <Link
            to={`/cars/${car.slug}${search}`}
            className="after:absolute after:inset-0 focus-visible:outline-none"
            data-testid="car-link"
          >
            <bdi>{car.name}</bdi>
          </Link>
        </h3>
        <p className="text-sm text-fg-muted">
          {car.year} · {labels.body(car.body)}
        </p>
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-fg-muted">
          <li className="inline-flex items-center gap-1">
            <GearIcon size={16} />
            {labels.transmission(car.transmission)}
          </li>
          <li className="inline-flex items-center gap-1">
            <PeopleIcon size={16} />
            <Trans>{passengers} places</Trans>
          </li>
          <li className="inline-flex items-center gap-1">
            <FuelIcon size={16} />
            {labels.fuel(car.fuel)}
          </li>
        </ul>
        <div className="mt-auto flex items-end justify-between gap-2 pt-2">
          {count > 0 && car.rating_avg != null ? (
            <span className="inline-flex items-center gap-1 text-sm">
              <Stars rating={Number(car.rating_avg)} size={14} />
              <span className="text-fg-muted">({count})</span>
            </span>
          ) : (
            <span className="text-sm text-fg-muted">
              <Trans>Nouveau</Trans>
            </span>
          )}
          <p className="text-end">
            <span className="text-lg font-bold text-primary-text" data-testid="car-price">
              {price}
            </span>
            <span className="text-sm text-fg-muted">
              {' '}
              <Trans>/ jour</Trans>
            </span>
            {days != null && (
              <TripTotal
                dailyRate={car.daily_rate_dzd}
                days={days}
                locale={labels.locale}
                className="block text-sm font-medium whitespace-nowrap"
              />
            )}
          </p>
        </div>
      </div>
    </li>
  );
});
