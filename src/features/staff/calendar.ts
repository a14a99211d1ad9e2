/**
 * The fleet calendar's model (docs/fleet.md): the Algiers days of a range, and for each car and
 * day what holds it — a booking (by status) or a block. Pure, so it is unit-tested and the page
 * only draws it.
 */
import { algiersToIso, algiersToday, isoToAlgiers } from '@/domain/dates';

export const CALENDAR_DEFAULT_DAYS = 14;
export const CALENDAR_DAY_CHOICES = [7, 14, 31] as const;

/** What the calendar shows of a booking (the statuses that occupy a car or did). */
export type CalendarBooking = {
  id: string;
  reference: string;
  car_id: string;
  status: 'pending' | 'reserved' | 'in_progress' | 'completed';
  start_at: string;
  end_at: string;
};

export type CalendarBlock = {
  id: string;
  car_id: string;
  start_at: string;
  end_at: string;
  reason: string;
};

/** What holds a car during (part of) a day; `first` marks the first day it is shown. */
export type CalendarHold =
  | { kind: 'booking'; booking: CalendarBooking; first: boolean }
  | { kind: 'block'; block: CalendarBlock; first: boolean };

/**
 * A car's day: what holds it, in order of start (empty when free). A day where one booking ends
 * and the next starts (the handover day) has both.
 */
export type CalendarCell = CalendarHold[];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The YYYY-MM-DD day `n` days after `day`. */
export function addDays(day: string, n: number): string {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an ISO instant, not copy
  const t = Date.parse(`${day}T00:00:00Z`) + n * DAY_MS;
  return new Date(t).toISOString().slice(0, 10);
}

/** The Algiers days of a range starting at `from` (YYYY-MM-DD), `count` of them. */
export function calendarDays(from: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(from, i));
}

/** A day's [start, end) in epoch ms, Algiers midnight to midnight. */
export function dayBounds(day: string): [number, number] {
  const start = Date.parse(algiersToIso(day, '00:00') ?? day);
  return [start, start + DAY_MS];
}

/** The range's bounds as ISO instants (for the queries). */
export function rangeBounds(days: readonly string[]): { from: string; to: string } {
  const first = days[0] ?? algiersToday();
  const last = days[days.length - 1] ?? first;
  return {
    from: new Date(dayBounds(first)[0]).toISOString(),
    to: new Date(dayBounds(last)[1]).toISOString(),
  };
}

type Span = { start: number; end: number };
type Held = { span: Span; cell: (first: boolean) => CalendarHold };

/**
 * One row of cells per car: each day lists what holds the car during that day, in order of start
 * (bookings and blocks never overlap in a valid database, but one can end and the next start on
 * the same day). `first` marks the first day a hold is shown.
 */
export function calendarRows(
  carIds: readonly string[],
  days: readonly string[],
  bookings: readonly CalendarBooking[],
  blocks: readonly CalendarBlock[],
): Map<string, CalendarCell[]> {
  const byCar = new Map<string, Held[]>();
  const push = (carId: string, held: Held) => {
    const list = byCar.get(carId);
    if (list) list.push(held);
    else byCar.set(carId, [held]);
  };
  for (const b of bookings) {
    push(b.car_id, {
      span: { start: Date.parse(b.start_at), end: Date.parse(b.end_at) },
      cell: (first) => ({ kind: 'booking', booking: b, first }),
    });
  }
  for (const k of blocks) {
    push(k.car_id, {
      span: { start: Date.parse(k.start_at), end: Date.parse(k.end_at) },
      cell: (first) => ({ kind: 'block', block: k, first }),
    });
  }
  for (const list of byCar.values()) list.sort((x, y) => x.span.start - y.span.start);
  const bounds = days.map(dayBounds);
  const rows = new Map<string, CalendarCell[]>();
  for (const carId of carIds) {
    const held = byCar.get(carId) ?? [];
    let previous: Held[] = [];
    const cells = bounds.map(([start, end]): CalendarCell => {
      const hits = held.filter((h) => h.span.start < end && h.span.end > start);
      const cell = hits.map((h) => h.cell(!previous.includes(h)));
      previous = hits;
      return cell;
    });
    rows.set(carId, cells);
  }
  return rows;
}
/** Whether `day` is today in Algiers. */
export function isToday(day: string, now: Date = new Date()): boolean {
  return day === algiersToday(now);
}

/** The Algiers day a stored instant falls on. */
export function dayOf(iso: string): string {
  return isoToAlgiers(iso).date;
}

/** A whole-day block from `first` to `last` (both included), as instants. */
export function blockBounds(first: string, last: string): { start_at: string; end_at: string } {
  return {
    start_at: algiersToIso(first, '00:00') ?? '',
    end_at: algiersToIso(addDays(last, 1), '00:00') ?? '',
  };
}
