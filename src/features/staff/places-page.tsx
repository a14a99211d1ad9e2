import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { localized } from '@/domain/locale';
import { formatMinutes } from '@/domain/opening-hours';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Badge } from '@/ui/badge';
import { Button, buttonClass } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

import { listPlaces, setOpeningHours, type StaffPlace } from '@/features/staff/places-api';
import {
  addClosedDate,
  closedDateLabel,
  formToHours,
  hoursToForm,
  weekdayNames,
  type DayForm,
  type HoursProblem,
} from '@/features/staff/places-hours';
import { useLocale } from '@/features/staff/staff-booking-parts';
import { SecondFactorGate } from '@/features/staff/second-factor';
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import { useStaffLoad } from '@/features/staff/use-staff-load';

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'h-11 min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger';
/* eslint-enable lingui/no-unlocalized-strings */

function usePlaces(online: boolean) {
  const { data: places, error, reload } = useStaffLoad(listPlaces, online);
  return { places, error, reload };
}

/** One line of a place's week: "dimanche 08:00–19:00 · vendredi fermé …". */
function WeekSummary({ place }: { place: StaffPlace }) {
  const { t } = useLingui();
  const locale = useLocale();
  const names = weekdayNames(locale);
  return (
    <span className="text-sm text-fg-muted">
      {place.opening_hours
        .map((day, i) =>
          day
            ? `${names[i]} ${formatMinutes(day[0])}–${formatMinutes(day[1])}`
            : `${names[i]} ${t`fermé`}`,
        )
        .join(' · ')}
    </span>
  );
}

/** The form of one place's hours and closed dates. */
function HoursForm({
  place,
  busy,
  serverError,
  onSubmit,
  onCancel,
}: {
  place: StaffPlace;
  busy: boolean;
  serverError: string | null;
  onSubmit: (days: DayForm[], closed: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const locale = useLocale();
  const id = useId();
  const names = weekdayNames(locale);
  const [days, setDays] = useState<DayForm[]>(() => hoursToForm(place.opening_hours));
  const [closed, setClosed] = useState<string[]>(place.closed_dates);
  const [newDate, setNewDate] = useState('');
  const [problems, setProblems] = useState<Record<number, HoursProblem>>({});
  const set = (i: number, patch: Partial<DayForm>) =>
    setDays((all) => all.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const problemText = (p: HoursProblem) =>
    p === 'invalid_time'
      ? t`Heure non valide`
      : t`L’heure de fermeture doit suivre l’heure d’ouverture`;

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        const result = formToHours(days);
        if (!result.ok) return setProblems(result.problems);
        setProblems({});
        onSubmit(days, closed);
      }}
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Horaires de prise en charge et de retour (heure d’Alger)</Trans>
        </legend>
        {days.map((day, i) => {
          const name = names[i]!;
          const problem = problems[i];
          return (
            <div
              key={i}
              className="flex flex-wrap items-center gap-2"
              role="group"
              aria-labelledby={`${id}-day-${i}`}
              data-testid="hours-day"
            >
              <label className="flex min-w-32 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={day.open}
                  onChange={(e) => set(i, { open: e.target.checked })}
                />
                <span id={`${id}-day-${i}`} className="capitalize">
                  {name}
                </span>
              </label>
              {day.open ? (
                <>
                  <input
                    type="time"
                    className={inputClass}
                    aria-label={t`${name} : ouverture`}
                    aria-invalid={problem ? true : undefined}
                    value={day.from}
                    onChange={(e) => set(i, { from: e.target.value })}
                  />
                  <input
                    type="time"
                    className={inputClass}
                    aria-label={t`${name} : fermeture`}
                    aria-invalid={problem ? true : undefined}
                    value={day.to}
                    onChange={(e) => set(i, { to: e.target.value })}
                  />
                </>
              ) : (
                <span className="text-sm text-fg-muted">
                  <Trans>Fermé</Trans>
                </span>
              )}
              {problem && (
                <p role="alert" className="w-full text-sm text-danger">
                  {problemText(problem)}
                </p>
              )}
            </div>
          );
        })}
      </fieldset>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Jours de fermeture (jours fériés, congés)</Trans>
        </legend>
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm">
            <Trans>Date</Trans>
            <input
              type="date"
              className={inputClass}
              value={newDate}
              onChange={(e) => setNewDate(e.target.value)}
              data-testid="closed-date-input"
            />
          </label>
          <Button
            size="sm"
            variant="secondary"
            disabled={!newDate}
            onClick={() => {
              setClosed((all) => addClosedDate(all, newDate));
              setNewDate('');
            }}
            data-testid="add-closed-date"
          >
            <Trans>Ajouter ce jour</Trans>
          </Button>
        </div>
        {closed.length === 0 ? (
          <p className="text-sm text-fg-muted">
            <Trans>Aucun jour de fermeture.</Trans>
          </p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="closed-dates">
            {closed.map((date) => {
              const label = closedDateLabel(date, locale);
              return (
                <li key={date} className="flex items-center gap-1 rounded-lg bg-muted px-2 py-1">
                  <span className="text-sm">{label}</span>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t`Retirer le ${label}`}
                    onClick={() => setClosed((all) => all.filter((d) => d !== date))}
                  >
                    ×
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>

      {serverError && (
        <p role="alert" className="text-sm text-danger">
          {serverError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Annuler</Trans>
        </Button>
        <Button type="submit" disabled={busy} data-testid="save-hours">
          <Trans>Enregistrer les horaires</Trans>
        </Button>
      </div>
    </form>
  );
}

/** /staff/places — the places' opening hours and closed days (docs/opening-hours.md). */
function StaffPlacesScreen() {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const { places, error, reload } = usePlaces(online);
  const [editing, setEditing] = useState<StaffPlace | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  async function save(place: StaffPlace, days: DayForm[], closed: string[]) {
    const week = formToHours(days);
    if (!week.ok) return;
    setBusy(true);
    setServerError(null);
    const result = await setOpeningHours(place.id, week.hours, closed);
    setBusy(false);
    if (!result.ok) {
      return setServerError(
        result.offline
          ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
          : i18n._(bookingErrorMessage(result.code)),
      );
    }
    const name = localized(place.name, locale);
    showToast(t`Horaires de ${name} enregistrés`, { kind: 'success' });
    setEditing(null);
    reload();
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <title>{t`Lieux et horaires · Personnel · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Lieux et horaires</Trans>
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/staff/prices" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
            <Trans>Prix du catalogue</Trans>
          </Link>
          <Link to="/staff/cars" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
            <Trans>Flotte</Trans>
          </Link>
        </div>
      </div>
      <p className="text-sm text-fg-muted">
        <Trans>
          Les clients ne peuvent choisir une prise en charge ou un retour qu’aux heures d’ouverture
          du lieu ; le serveur refuse toute autre heure.
        </Trans>
      </p>
      {!online && <OfflineNotice />}
      {error && online && <LoadErrorNotice error={error} onRetry={reload} />}
      {!places ? (
        online && !error && <PageSpinner />
      ) : (
        <ul className="flex flex-col gap-2" data-testid="places-list">
          {places.map((place) => {
            const name = localized(place.name, locale);
            return (
              <li
                key={place.id}
                className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3"
                data-testid="staff-place"
                data-place={place.id}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="flex min-w-0 flex-col">
                    <span className="font-medium">
                      <bdi>{name}</bdi>
                      {place.iata && <span className="text-fg-muted"> ({place.iata})</span>}
                    </span>
                    <WeekSummary place={place} />
                    {place.closed_dates.length > 0 && (
                      <span className="text-sm text-fg-muted">
                        {t`Jours de fermeture :`}{' '}
                        {place.closed_dates.map((d) => closedDateLabel(d, locale)).join(', ')}
                      </span>
                    )}
                  </div>
                  <div className="flex items-center gap-2">
                    {!place.active && (
                      <Badge tone="neutral">
                        <Trans>Retiré</Trans>
                      </Badge>
                    )}
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={!online || editing?.id === place.id}
                      aria-label={t`Modifier les horaires : ${name}`}
                      onClick={() => {
                        setServerError(null);
                        setEditing(place);
                      }}
                      data-testid="edit-hours"
                    >
                      <Trans>Modifier les horaires</Trans>
                    </Button>
                  </div>
                </div>
                {editing?.id === place.id && (
                  <section aria-label={t`Horaires : ${name}`} className="border-t border-line pt-3">
                    <HoursForm
                      place={place}
                      busy={busy}
                      serverError={serverError}
                      onSubmit={(days, closed) => void save(place, days, closed)}
                      onCancel={() => setEditing(null)}
                    />
                  </section>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export default function StaffPlacesPage() {
  return (
    <SecondFactorGate>
      <StaffPlacesScreen />
    </SecondFactorGate>
  );
}
