import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { algiersToday } from '@/domain/dates';
import { useOnline } from '@/infra/network';
import { Button, buttonClass } from '@/ui/button';
import { cn } from '@/ui/cn';
import { PageSpinner } from '@/ui/spinner';

import { BlockDialog, UnblockDialog } from '@/features/staff/block-dialog';
import {
  BLOCK_CLASS,
  CarRow,
  calendarStatus,
  dayLabels,
  statusClass,
} from '@/features/staff/calendar-row';
import {
  CALENDAR_DAY_CHOICES,
  CALENDAR_DEFAULT_DAYS,
  calendarDays,
  calendarRows,
  rangeBounds,
  type CalendarBlock,
  type CalendarBooking,
} from '@/features/staff/calendar';
import { loadCalendar, type CalendarData } from '@/features/staff/calendar-api';
import { useLocale } from '@/features/staff/staff-booking-parts';
import { SecondFactorGate } from '@/features/staff/second-factor';
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import type { LoadError } from '@/features/staff/use-staff-board';

function useCalendar(from: string, count: number, online: boolean) {
  const days = useMemo(() => calendarDays(from, count), [from, count]);
  const [version, setVersion] = useState(0);
  const key = `${from}|${count}|${version}`;
  const [answer, setAnswer] = useState<{
    key: string;
    data: CalendarData | null;
    error: LoadError | null;
  } | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    const { from: start, to } = rangeBounds(days);
    void loadCalendar(start, to).then((result) => {
      if (!live) return;
      setAnswer((previous) =>
        result.ok
          ? { key, data: result.data, error: null }
          : {
              key,
              data: previous?.data ?? null,
              error: { code: result.code, offline: result.offline },
            },
      );
    });
    return () => {
      live = false;
    };
  }, [days, online, key]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const loading = answer?.key !== key;
  // While the next range loads, the previous one stays drawn only if it has the same days.
  const data =
    answer && answer.key.split('|').slice(0, 2).join('|') === `${from}|${count}`
      ? answer.data
      : null;
  return { days, data, error: answer?.error ?? null, loading, reload };
}

/** /staff/calendar — every active car against the days of a range (docs/fleet.md). */
function StaffCalendarScreen() {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const from = /^\d{4}-\d{2}-\d{2}$/.test(params.get('from') ?? '')
    ? params.get('from')!
    : algiersToday();
  const asked = Number(params.get('days'));
  const count = (CALENDAR_DAY_CHOICES as readonly number[]).includes(asked)
    ? asked
    : CALENDAR_DEFAULT_DAYS;
  const calendar = useCalendar(from, count, online);
  const labels = useMemo(() => dayLabels(calendar.days, locale), [calendar.days, locale]);
  const rows = useMemo(
    () =>
      calendar.data
        ? calendarRows(
            calendar.data.cars.map((c) => c.id),
            calendar.days,
            calendar.data.bookings,
            calendar.data.blocks,
          )
        : null,
    [calendar.data, calendar.days],
  );
  const [blocking, setBlocking] = useState<{ carId: string; day: string } | null>(null);
  const [opened, setOpened] = useState<CalendarBlock | null>(null);
  const onBlock = useCallback((carId: string, day: string) => setBlocking({ carId, day }), []);
  const carName = (carId: string | undefined) =>
    calendar.data?.cars.find((c) => c.id === carId)?.name ?? '';

  function change(next: { from?: string; days?: number }) {
    const p = new URLSearchParams(params);
    if (next.from !== undefined) p.set('from', next.from);
    if (next.days !== undefined) p.set('days', String(next.days));
    setParams(p, { replace: true });
  }

  const fieldClassName =
    'h-11 min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';
  const blockingCar = blocking ? { id: blocking.carId, name: carName(blocking.carId) } : null;
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4">
      <title>{t`Calendrier · Personnel · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Calendrier de la flotte</Trans>
        </h1>
        <Link to="/staff" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
          <Trans>Réservations à gérer</Trans>
        </Link>
      </div>
      {!online && <OfflineNotice />}
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-from`} className="text-sm font-medium">
            <Trans>À partir du</Trans>
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={from}
            onChange={(event) => event.target.value && change({ from: event.target.value })}
            className={fieldClassName}
            data-testid="calendar-from"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-days`} className="text-sm font-medium">
            <Trans>Nombre de jours</Trans>
          </label>
          <select
            id={`${id}-days`}
            value={count}
            onChange={(event) => change({ days: Number(event.target.value) })}
            className={fieldClassName}
            data-testid="calendar-days"
          >
            {CALENDAR_DAY_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <Button size="sm" variant="secondary" onClick={() => change({ from: algiersToday() })}>
          <Trans>Aujourd’hui</Trans>
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!online}
          loading={calendar.loading && !!calendar.data}
          onClick={calendar.reload}
        >
          <Trans>Actualiser</Trans>
        </Button>
      </div>
      <ul className="flex flex-wrap gap-2 text-xs" aria-label={t`Légende`}>
        {(Object.keys(calendarStatus) as CalendarBooking['status'][]).map((s) => (
          <li key={s} className={cn('rounded px-2 py-1', statusClass[s])}>
            {i18n._(calendarStatus[s])}
          </li>
        ))}
        <li className={cn('rounded px-2 py-1', BLOCK_CLASS)}>
          <Trans>Bloquée</Trans>
        </li>
      </ul>
      {calendar.error && online && (
        <LoadErrorNotice error={calendar.error} onRetry={calendar.reload} />
      )}
      {!rows || !calendar.data ? (
        online && !calendar.error && <PageSpinner />
      ) : (
        <div
          role="region"
          aria-label={t`Calendrier de la flotte`}
          // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          className="max-w-full overflow-x-auto rounded-xl border border-line focus-visible:outline-2 focus-visible:outline-ring"
          data-testid="calendar-scroll"
        >
          <table className="border-separate border-spacing-0" data-testid="calendar">
            <caption className="sr-only">
              <Trans>Voitures par jour : réservations par statut et blocages</Trans>
            </caption>
            <thead>
              <tr>
                <th
                  scope="col"
                  className="sticky start-0 z-10 border-e border-b border-line bg-surface px-2 text-start text-xs"
                >
                  <Trans>Voiture</Trans>
                </th>
                {labels.map((l) => (
                  <th
                    key={l.day}
                    scope="col"
                    abbr={l.long}
                    aria-current={l.today ? 'date' : undefined}
                    className={cn(
                      'border-b border-line px-1 py-1 text-center text-xs font-medium',
                      l.today && 'bg-primary text-on-primary',
                    )}
                    data-testid="calendar-day"
                    data-day={l.day}
                  >
                    <span className="block">{l.weekday}</span>
                    <span className="block tabular-nums">{l.short}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {calendar.data.cars.map((car) => (
                <CarRow
                  key={car.id}
                  car={car}
                  cells={rows.get(car.id) ?? []}
                  labels={labels}
                  online={online}
                  onBlock={onBlock}
                  onOpenBlock={setOpened}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <BlockDialog
        car={blockingCar}
        day={blocking?.day ?? null}
        onClose={() => setBlocking(null)}
        onChanged={calendar.reload}
      />
      <UnblockDialog
        block={opened}
        carName={carName(opened?.car_id)}
        onClose={() => setOpened(null)}
        onChanged={calendar.reload}
      />
    </div>
  );
}

/** Staff screens open at aal2 only: the second-factor step comes first (second-factor.tsx). */
export default function StaffCalendarPage() {
  return (
    <SecondFactorGate>
      <StaffCalendarScreen />
    </SecondFactorGate>
  );
}
