/**
 * When a place receives a pickup or a return (docs/opening-hours.md): its hours per weekday and
 * its closed dates, Algiers time. The same rule as `internal.is_open_at` in SQL, which
 * `create_booking` applies (codes `pickup_outside_hours`, `return_outside_hours`);
 * tests/api/opening-hours.test.ts holds the two equal on random times. Pure and free of runtime
 * imports, so the Node test projects load it as is.
 */

/** [open, close] in minutes after midnight, 0 <= open < close <= 1440 (1440 = midnight). */
export type DayHours = [number, number];

/** Seven entries indexed like `Date#getUTCDay` and SQL's `extract(dow)`: 0 = Sunday. */
export type WeekHours = (DayHours | null)[];

/** What a place row carries (rows synced before the hours existed carry neither: open). */
export type PlaceHours = {
  opening_hours?: WeekHours | null;
  closed_dates?: string[] | null;
};

/** Why a time is not offered: a closed date, a weekday without hours, or outside the hours. */
export type ClosedReason = 'closed_date' | 'closed_weekday' | 'outside_hours';

export type OpeningCheck =
  | { open: true }
  | { open: false; reason: ClosedReason; date: string; weekday: number; hours: DayHours | null };

export type OpeningHoursCode = 'pickup_outside_hours' | 'return_outside_hours';

const OFFSET_MS = 60 * 60 * 1000; // Africa/Algiers: UTC+1 all year (src/domain/dates.ts)
const DAY_MS = 24 * OFFSET_MS;

/** Every day 00:00–24:00: a new place until staff set its hours. */
export const ALWAYS_OPEN: WeekHours = Array.from({ length: 7 }, (): DayHours => [0, 1440]);

/** The Algiers date (YYYY-MM-DD) and weekday of an instant, and its second of the day. */
function algiersParts(ms: number): { date: string; weekday: number; second: number } {
  const local = ms + OFFSET_MS;
  const d = new Date(local);
  return {
    date: d.toISOString().slice(0, 10),
    weekday: d.getUTCDay(),
    second: (((local % DAY_MS) + DAY_MS) % DAY_MS) / 1000,
  };
}

/** The weekday (0 = Sunday) of an Algiers date `YYYY-MM-DD`. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/** The hours of a place on an Algiers date: a closed reason, or [open, close]. */
export function hoursOn(
  place: PlaceHours,
  date: string,
): { closed: 'closed_date' | 'closed_weekday' } | { hours: DayHours } {
  if (place.closed_dates?.includes(date)) return { closed: 'closed_date' };
  const week = place.opening_hours ?? ALWAYS_OPEN;
  const hours = week[weekdayOf(date)];
  return hours ? { hours } : { closed: 'closed_weekday' };
}

/**
 * Whether the place receives a pickup or a return at `iso` (any offset): the Algiers date is not
 * closed, its weekday has hours, and the time of day lies within them, both ends included.
 */
export function openingCheck(place: PlaceHours, iso: string): OpeningCheck {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return { open: true }; // invalid dates are refused elsewhere
  const { date, weekday, second } = algiersParts(ms);
  const day = hoursOn(place, date);
  if ('closed' in day) return { open: false, reason: day.closed, date, weekday, hours: null };
  const [open, close] = day.hours;
  if (second < open * 60 || second > close * 60) {
    return { open: false, reason: 'outside_hours', date, weekday, hours: day.hours };
  }
  return { open: true };
}

export function isOpenAt(place: PlaceHours, iso: string): boolean {
  return openingCheck(place, iso).open;
}

/**
 * The first code `create_booking` would answer for these places and times, or null. A place not
 * chosen yet, or unknown to the device, is not checked (the server decides).
 */
export function openingHoursProblem(
  request: {
    start_at: string;
    end_at: string;
    pickup_location_id: string | null;
    dropoff_location_id: string | null;
  },
  places: readonly (PlaceHours & { id: string })[],
): OpeningHoursCode | null {
  const place = (id: string | null) => (id ? places.find((p) => p.id === id) : undefined);
  const pickup = place(request.pickup_location_id);
  if (pickup && !isOpenAt(pickup, request.start_at)) return 'pickup_outside_hours';
  const dropoff = place(request.dropoff_location_id);
  if (dropoff && !isOpenAt(dropoff, request.end_at)) return 'return_outside_hours';
  return null;
}

/** `HH:mm` of minutes after midnight (1440 → 24:00). */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** Minutes after midnight of `HH:mm`, or null. `24:00` is accepted as 1440 (a closing time). */
export function parseMinutes(time: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return null;
  const value = Number(match[1]) * 60 + Number(match[2]);
  if (Number(match[2]) > 59 || value > 1440) return null;
  return value;
}

/**
 * The times (`HH:mm`, every `step` minutes) a place offers on an Algiers date: empty when it is
 * closed that day. The closing time itself is offered when it falls on a step (and is not 24:00).
 */
export function timeChoices(place: PlaceHours, date: string, step = 30): string[] {
  const day = hoursOn(place, date);
  if ('closed' in day) return [];
  const [open, close] = day.hours;
  const first = Math.ceil(open / step) * step;
  const times: string[] = [];
  for (let m = first; m <= Math.min(close, 1439); m += step) times.push(formatMinutes(m));
  return times;
}

/** Whether a value is a valid week of hours (the shape `internal.is_opening_hours` checks). */
export function isWeekHours(value: unknown): value is WeekHours {
  return (
    Array.isArray(value) &&
    value.length === 7 &&
    value.every(
      (e) =>
        e === null ||
        (Array.isArray(e) &&
          e.length === 2 &&
          Number.isInteger(e[0]) &&
          Number.isInteger(e[1]) &&
          e[0] >= 0 &&
          e[0] < e[1] &&
          e[1] <= 1440),
    )
  );
}
