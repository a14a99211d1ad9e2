import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';

import { overlapping, upcomingBusy } from '@/domain/availability';
import { BRAND_NAME } from '@/domain/brand';
import { formatDate, formatDateTime } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import type { Car } from '@/domain/rows';
import { useScreenContent } from '@/infra/first-screen';
import { useOnline } from '@/infra/network';
import { buttonClass } from '@/ui/button';
import { CalendarIcon, ChevronStartIcon } from '@/ui/icons';

import { CarGallery } from '@/features/catalogue/car-gallery';
import {
  CatalogueUnavailable,
  catalogueUnavailable,
} from '@/features/catalogue/catalogue-unavailable';
import { TripTotal } from '@/features/catalogue/car-card';
import { rentalWindow, tripDays } from '@/features/catalogue/filters';
import { bookingHref, freeCarsHref } from '@/features/catalogue/car-links';
import { featureIcons, useCarLabels } from '@/features/catalogue/labels';
import {
  useBusyIndex,
  useCarBySlug,
  useCarReviews,
  useCatalogueStatus,
  useCatalogueSync,
} from '@/features/catalogue/catalogue-api';
import {
  BackToCars,
  CarLoading,
  releaseFirstCarPhoto,
  useOpenedWith,
} from '@/features/catalogue/car-page-loading';
import { RentalDates } from '@/features/catalogue/rental-dates';
import { Stars } from '@/features/catalogue/stars';

/** Busy periods listed under "availability". */
const BUSY_LISTED = 6;

/** /cars/:slug — everything about one car, from IndexedDB (reviews refreshed when online). */
export default function CarDetailsPage() {
  useCatalogueSync();
  const { slug = '' } = useParams();
  const car = useCarBySlug(slug);
  const status = useCatalogueStatus();
  const online = useOnline();
  // A deep link on a device that has no catalogue yet: it is not "not found" until synced.
  const notSyncedYet = car === null && status.last_success_at === null;
  const unavailable = notSyncedYet && catalogueUnavailable(status, online);
  useScreenContent(car !== undefined && (!notSyncedYet || unavailable));
  if (unavailable) {
    return (
      <div className="py-10">
        <CatalogueUnavailable online={online} />
      </div>
    );
  }
  if (car === undefined || notSyncedYet) return <CarLoading slug={slug} />;
  if (car === null || !car.active) return <CarMissing retired={car !== null} />;
  return <CarDetails car={car} />;
}

function CarMissing({ retired }: { retired: boolean }) {
  return (
    <div className="flex flex-col items-start gap-4 py-10">
      <h1 className="text-2xl font-bold">
        {retired ? (
          <Trans>Cette voiture n’est plus proposée</Trans>
        ) : (
          <Trans>Voiture introuvable</Trans>
        )}
      </h1>
      <Link to="/cars" className={buttonClass({ variant: 'secondary' })}>
        <ChevronStartIcon size={18} />
        <Trans>Voir toutes les voitures</Trans>
      </Link>
    </div>
  );
}

function CarDetails({ car }: { car: Car }) {
  const { t } = useLingui();
  const labels = useCarLabels();
  const locale = labels.locale;
  const busy = useBusyIndex();
  const openedWith = useOpenedWith();
  const [dates, setDates] = useState(() => ({ start: openedWith.start, end: openedWith.end }));
  const { pickup } = openedWith;
  useEffect(releaseFirstCarPhoto, []);

  const period = rentalWindow(dates);
  const days = tripDays(dates);
  const conflicts = period && busy ? overlapping(busy, car.id, period.startMs, period.endMs) : [];
  const conflictFrom = conflicts[0] ? formatDateTime(new Date(conflicts[0][0]), locale) : '';
  const conflictTo = conflicts[0] ? formatDateTime(new Date(conflicts[0][1]), locale) : '';
  const deposit = formatDzd(car.deposit_dzd, locale);
  const { seats, doors } = car;
  const mileage = new Intl.NumberFormat(numberLocale(locale)).format(car.mileage_km);
  // "Now" is read once per page view: the list of coming rentals does not need to tick.
  const [now] = useState(() => Date.now());
  const upcoming = useMemo(
    () => (busy ? upcomingBusy(busy, car.id, now) : []),
    [busy, car.id, now],
  );

  const specs: Array<[ReactNode, ReactNode]> = [
    [<Trans key="k">Carrosserie</Trans>, labels.body(car.body)],
    [
      <Trans key="k">Places et portes</Trans>,
      <Trans key="v">
        {seats} places, {doors} portes
      </Trans>,
    ],
    [<Trans key="k">Passagers</Trans>, car.passengers],
    [<Trans key="k">Carburant</Trans>, labels.fuel(car.fuel)],
    [<Trans key="k">Année</Trans>, car.year],
    [<Trans key="k">Boîte de vitesses</Trans>, labels.transmission(car.transmission)],
    [
      <Trans key="k" context="drivetrain">
        Transmission
      </Trans>,
      labels.drive(car.drive),
    ],
    [<Trans key="k">Moteur</Trans>, <bdi key="v">{car.engine}</bdi>],
    [<Trans key="k">Kilométrage</Trans>, <Trans key="v">{mileage} km</Trans>],
    [<Trans key="k">Couleur extérieure</Trans>, labels.color(car.exterior_color)],
    [<Trans key="k">Couleur intérieure</Trans>, labels.color(car.interior_color)],
  ];

  return (
    <article className="flex flex-col gap-8">
      <title>{`${car.name} · ${BRAND_NAME}`}</title>
      <BackToCars start={dates.start} end={dates.end} pickup={pickup} />

      {/* Phone: photos and name, then price and booking, then the details. Wide: two columns. */}
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex min-w-0 flex-col gap-8 lg:col-start-1">
          <CarGallery name={car.name} images={car.images} />

          <header className="flex flex-col gap-2">
            <h1 className="text-2xl font-bold sm:text-3xl">
              <bdi>{car.name}</bdi>
            </h1>
            <p className="text-fg-muted">
              <bdi>
                {car.make} {car.model}
              </bdi>{' '}
              · {car.year} · {labels.body(car.body)}
            </p>
            <RatingSummary car={car} />
          </header>
        </div>
        <aside
          aria-label={t`Prix et réservation`}
          className="flex flex-col gap-5 self-start rounded-xl border border-line bg-surface p-5 shadow-sm lg:sticky lg:top-20 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          <div>
            <p>
              <span className="text-2xl font-bold text-primary-text" data-testid="daily-rate">
                {formatDzd(car.daily_rate_dzd, locale)}
              </span>{' '}
              <span className="text-fg-muted">
                <Trans>/ jour</Trans>
              </span>
            </p>
            {days != null && (
              <p className="mt-1 font-semibold">
                <TripTotal dailyRate={car.daily_rate_dzd} days={days} locale={locale} />
              </p>
            )}
            <p className="mt-1 text-sm text-fg-muted" data-testid="deposit">
              <Trans>
                Caution remboursable : {deposit}, en espèces, avec une pièce d’identité originale.
              </Trans>
            </p>
          </div>

          <div className="flex flex-col gap-3">
            <h2 className="flex items-center gap-2 font-semibold">
              <CalendarIcon size={18} />
              <Trans>Disponibilité</Trans>
            </h2>
            <RentalDates start={dates.start} end={dates.end} onChange={setDates} />
            <div role="status" aria-live="polite" data-testid="availability">
              {period &&
                busy &&
                (conflicts.length === 0 ? (
                  <p className="font-medium text-success">
                    <Trans>Disponible à ces dates</Trans>
                  </p>
                ) : (
                  <p className="font-medium text-danger">
                    <Trans>
                      Déjà réservée du {conflictFrom} au {conflictTo}
                    </Trans>
                  </p>
                ))}
            </div>
            {upcoming.length > 0 && (
              <div className="text-sm">
                <p className="text-fg-muted">
                  <Trans>Périodes déjà réservées :</Trans>
                </p>
                <ul className="mt-1 flex flex-col gap-0.5">
                  {upcoming.slice(0, BUSY_LISTED).map(([from, to]) => (
                    <li key={from}>
                      {formatDate(new Date(from), locale)} → {formatDate(new Date(to), locale)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>

          {conflicts.length > 0 ? (
            // The device knows the car is taken then: other cars for these dates come first; a
            // booking anyway stays possible (the device may be behind), and the wizard warns too.
            <div className="flex flex-col gap-2">
              <Link
                to={freeCarsHref(dates.start, dates.end, pickup)}
                className={buttonClass({ size: 'lg', className: 'w-full' })}
                data-testid="free-cars-link"
              >
                <Trans>Voir les voitures libres à ces dates</Trans>
              </Link>
              <Link
                to={bookingHref(car.id, dates.start, dates.end, pickup)}
                className={buttonClass({ variant: 'secondary', size: 'lg', className: 'w-full' })}
                data-testid="book-button"
              >
                <Trans>Réserver quand même</Trans>
              </Link>
            </div>
          ) : (
            <Link
              to={bookingHref(car.id, dates.start, dates.end, pickup)}
              className={buttonClass({ size: 'lg', className: 'w-full' })}
              data-testid="book-button"
            >
              <Trans>Réserver cette voiture</Trans>
            </Link>
          )}
        </aside>
        <div className="flex min-w-0 flex-col gap-8 lg:col-start-1 lg:row-start-2">
          <section aria-labelledby="car-description" className="flex flex-col gap-2">
            <h2 id="car-description" className="text-lg font-semibold">
              <Trans>Description</Trans>
            </h2>
            <p className="leading-relaxed whitespace-pre-line">
              {labels.localized(car.description)}
            </p>
          </section>

          <section aria-labelledby="car-specs" className="flex flex-col gap-3">
            <h2 id="car-specs" className="text-lg font-semibold">
              <Trans>Caractéristiques</Trans>
            </h2>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 xs:grid-cols-2">
              {specs.map(([term, value], i) => (
                <div
                  key={i}
                  className="flex justify-between gap-3 border-b border-line py-2 text-sm"
                >
                  <dt className="text-fg-muted">{term}</dt>
                  <dd className="text-end font-medium">{value}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section aria-labelledby="car-features" className="flex flex-col gap-3">
            <h2 id="car-features" className="text-lg font-semibold">
              <Trans>Équipements</Trans>
            </h2>
            {car.features.length ? (
              <ul className="grid grid-cols-1 gap-2 xs:grid-cols-2">
                {car.features.map((feature) => {
                  const Icon = featureIcons[feature];
                  return (
                    <li key={feature} className="flex items-center gap-2 text-sm">
                      {Icon && <Icon size={18} className="text-primary-text" />}
                      {labels.feature(feature)}
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="text-sm text-fg-muted">
                <Trans>Aucun équipement particulier.</Trans>
              </p>
            )}
          </section>

          <Reviews car={car} locale={locale} />
        </div>
      </div>
    </article>
  );
}

function numberLocale(locale: Locale): string {
  return locale === 'ar' ? 'ar-DZ-u-nu-latn' : locale === 'en' ? 'en-GB' : 'fr-DZ';
}

function RatingSummary({ car }: { car: Car }) {
  const { i18n } = useLingui();
  const count = car.rating_count ?? 0;
  if (count === 0 || car.rating_avg == null) {
    return (
      <p className="text-sm text-fg-muted">
        <Trans>Pas encore d’avis</Trans>
      </p>
    );
  }
  const average = i18n.number(Number(car.rating_avg), { maximumFractionDigits: 1 });
  return (
    <p className="flex items-center gap-2 text-sm" data-testid="rating-summary">
      <Stars rating={Number(car.rating_avg)} />
      <span className="font-medium">
        <Trans>{average} sur 5</Trans>
      </span>
      <span className="text-fg-muted">
        (<Plural value={count} one="# avis" other="# avis" />)
      </span>
    </p>
  );
}

function Reviews({ car, locale }: { car: Car; locale: Locale }) {
  const cached = useCarReviews(car.id);
  const online = useOnline();
  const reviews = cached?.reviews ?? [];
  return (
    <section aria-labelledby="car-reviews" className="flex flex-col gap-3">
      <h2 id="car-reviews" className="text-lg font-semibold">
        <Trans>Avis des clients</Trans>
      </h2>
      {reviews.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {reviews.map((review) => (
            <li key={review.id} className="rounded-lg border border-line bg-surface p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <bdi className="font-medium">{review.author_name}</bdi>
                <Stars rating={review.rating} size={14} />
              </div>
              <p className="text-xs text-fg-muted">
                <time dateTime={review.created_at}>{formatDate(review.created_at, locale)}</time>
              </p>
              {review.comment && (
                <p className="mt-2 text-sm" dir="auto">
                  {review.comment}
                </p>
              )}
            </li>
          ))}
        </ul>
      ) : cached === undefined ? null : !online && cached === null ? (
        <p className="text-sm text-fg-muted">
          <Trans>Les avis s’affichent quand vous êtes en ligne.</Trans>
        </p>
      ) : (
        <p className="text-sm text-fg-muted">
          <Trans>Aucun avis pour le moment.</Trans>
        </p>
      )}
    </section>
  );
}
