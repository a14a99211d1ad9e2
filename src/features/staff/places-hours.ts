/**
 * The opening-hours form of a place (docs/opening-hours.md) as plain values: one row per weekday
 * (0 = Sunday) with "open" and two `HH:mm` times, and the closed dates. Checked here as
 * `internal.is_opening_hours` checks it; the server checks again.
 */
import { algiersToIso, formatDate } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { formatMinutes, parseMinutes, type DayHours, type WeekHours } from '@/domain/opening-hours';

export type DayForm = { open: boolean; from: string; to: string };

/** A closing time of midnight is written 00:00 in a time input and stored as 1440. */
function closingMinutes(time: string): number | null {
  const m = parseMinutes(time);
  return m === 0 ? 1440 : m;
}

export function hoursToForm(week: WeekHours): DayForm[] {
  return week.map((day) =>
    day
      ? { open: true, from: formatMinutes(day[0]), to: formatMinutes(day[1] % 1440) }
      : { open: false, from: '08:00', to: '19:00' },
  );
}

export type HoursProblem = 'invalid_time' | 'closes_before_opening';

/** The week to send, or the problem of each weekday that has one. */
export function formToHours(
  days: readonly DayForm[],
): { ok: true; hours: WeekHours } | { ok: false; problems: Record<number, HoursProblem> } {
  const problems: Record<number, HoursProblem> = {};
  const hours = days.map((day, i): DayHours | null => {
    if (!day.open) return null;
    const from = parseMinutes(day.from);
    const to = closingMinutes(day.to);
    if (from === null || to === null || from >= 1440) {
      problems[i] = 'invalid_time';
      return null;
    }
    if (to <= from) {
      problems[i] = 'closes_before_opening';
      return null;
    }
    return [from, to];
  });
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, hours };
}

/** The closed dates with `date` added, sorted, once each. */
export function addClosedDate(dates: readonly string[], date: string): string[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return [...dates];
  return [...new Set([...dates, date])].sort();
}

/** Weekday names of the locale, Sunday first (index = weekday). */
export function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 2027-03-07 is a Sunday.
  return Array.from({ length: 7 }, (_, i) => format.format(Date.UTC(2027, 2, 7 + i, 12)));
}

const NOON = '12:00';

/** A closed date (`YYYY-MM-DD`, an Algiers day) in words. */
export function closedDateLabel(date: string, locale: Locale): string {
  return formatDate(algiersToIso(date, NOON) ?? date, locale);
}
