import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import { Link } from 'react-router-dom';

import { algiersToday } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { cn } from '@/ui/cn';

import type { CalendarBlock, CalendarBooking, CalendarCell } from '@/features/staff/calendar';
import type { CalendarData } from '@/features/staff/calendar-api';

/**
 * One car's row of the fleet calendar (docs/fleet.md, "Fleet calendar"): each day a control named
 * in words; a day that two holds share (one booking ends, the next starts) is split in two.
 */
export const calendarStatus: Record<CalendarBooking['status'], MessageDescriptor> = {
  pending: msg`En attente`,
  reserved: msg`Réservée`,
  in_progress: msg`En location`,
  completed: msg`Terminée`,
};

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
export const statusClass: Record<CalendarBooking['status'], string> = {
  pending: 'bg-warning/25 text-fg',
  reserved: 'bg-primary-soft text-primary-text',
  in_progress: 'bg-success/25 text-fg',
  completed: 'bg-muted text-fg-muted',
};
export const BLOCK_CLASS =
  'bg-[repeating-linear-gradient(45deg,var(--color-line)_0_4px,transparent_4px_8px)] text-fg';
const CELL =
  'flex h-10 w-full min-w-11 items-center justify-center px-1 text-xs focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring';
/* eslint-enable lingui/no-unlocalized-strings */

export type DayLabel = {
  day: string;
  short: string;
  weekday: string;
  long: string;
  today: boolean;
};

export function dayLabels(days: readonly string[], locale: Locale): DayLabel[] {
  const tag = { fr: 'fr-DZ', en: 'en-GB', ar: 'ar-DZ-u-nu-latn' }[locale];
  const short = new Intl.DateTimeFormat(tag, { day: 'numeric', timeZone: 'UTC' });
  const weekday = new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(tag, { dateStyle: 'full', timeZone: 'UTC' });
  const today = algiersToday();
  return days.map((day) => {
    // eslint-disable-next-line lingui/no-unlocalized-strings -- an ISO instant, not copy
    const d = new Date(`${day}T12:00:00Z`);
    return {
      day,
      short: short.format(d),
      weekday: weekday.format(d),
      long: long.format(d),
      today: day === today,
    };
  });
}

type RowProps = {
  car: CalendarData['cars'][number];
  cells: CalendarCell[];
  labels: DayLabel[];
  online: boolean;
  onBlock: (carId: string, day: string) => void;
  onOpenBlock: (block: CalendarBlock) => void;
};

export const CarRow = memo(function CarRow({
  car,
  cells,
  labels,
  online,
  onBlock,
  onOpenBlock,
}: RowProps) {
  const { t, i18n } = useLingui();
  const name = car.name;
  return (
    <tr data-testid="calendar-row" data-car={car.id}>
      <th
        scope="row"
        className="sticky start-0 z-10 max-w-32 truncate border-e border-b border-line bg-surface px-2 text-start text-sm font-medium"
      >
        <bdi>{name}</bdi> <span className="text-xs text-fg-muted">{car.year}</span>
      </th>
      {cells.map((cell, i) => {
        const label = labels[i]!;
        const today = label.today ? 'bg-primary/5' : '';
        const date = label.long;
        const split = cell.length > 1;
        if (cell.length > 0) {
          const holds = cell.map((hold) => {
            // eslint-disable-next-line lingui/no-unlocalized-strings -- Tailwind classes
            const tight = split && 'min-w-0 flex-1 px-0 text-[10px]';
            if (hold.kind === 'booking') {
              const b = hold.booking;
              const status = i18n._(calendarStatus[b.status]);
              const reference = b.reference;
              return (
                <Link
                  key={b.id}
                  to={`/staff/bookings/${b.id}`}
                  className={cn(CELL, statusClass[b.status], tight)}
                  aria-label={t`${reference}, ${status}, ${name}, ${date}`}
                  data-testid="calendar-booking"
                  data-status={b.status}
                  data-day={label.day}
                  data-booking={b.id}
                >
                  {hold.first ? <span className="font-mono">{reference.slice(-4)}</span> : null}
                </Link>
              );
            }
            const reason = hold.block.reason;
            return (
              <button
                key={hold.block.id}
                type="button"
                className={cn(CELL, BLOCK_CLASS, tight)}
                aria-label={t`Bloquée : ${reason}, ${name}, ${date}`}
                onClick={() => onOpenBlock(hold.block)}
                data-testid="calendar-block"
                data-day={label.day}
              >
                {hold.first ? '✕' : null}
              </button>
            );
          });
          return (
            <td key={label.day} className={cn('border-b border-line p-0', today)}>
              {split ? (
                <div className="flex min-w-16" data-testid="calendar-split">
                  {holds}
                </div>
              ) : (
                holds
              )}
            </td>
          );
        }
        return (
          <td key={label.day} className={cn('border-b border-line p-0', today)}>
            <button
              type="button"
              className={cn(CELL, 'text-transparent hover:text-fg-muted focus-visible:text-fg')}
              aria-label={t`Bloquer ${name} le ${date}`}
              disabled={!online}
              onClick={() => onBlock(car.id, label.day)}
              data-testid="calendar-free"
              data-day={label.day}
            >
              +
            </button>
          </td>
        );
      })}
    </tr>
  );
});
