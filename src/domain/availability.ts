/**
 * When a car is free (docs/booking.md). One rule, the database's: a booking holds its car over
 * the half-open range [start, end) while it is pending, reserved or in progress (lifecycle.ts,
 * `holdsCar`), the `EXCLUDE` constraint and `car_busy_periods` apply it on the server, and the
 * device applies it here to the busy periods it synced.
 */

/** A period during which a car is taken (from `car_busy_periods`), no personal data. */
export type BusyPeriod = {
  /** `${car_id}|${start_at}` */
  key: string;
  car_id: string;
  start_at: string;
  end_at: string;
};

/**
 * Whether two half-open ranges [aStart, aEnd) and [bStart, bEnd) overlap, like Postgres' `&&` on
 * tstzrange '[)': a rental may start the very minute another one ends.
 */
export function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** A car's busy periods as [start, end) in epoch milliseconds, sorted by start. */
export type BusyIndex = ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>;

/** Groups busy periods by car, sorted by start, skipping malformed rows. */
export function buildBusyIndex(periods: readonly BusyPeriod[]): BusyIndex {
  const index = new Map<string, Array<readonly [number, number]>>();
  for (const period of periods) {
    const start = Date.parse(period.start_at);
    const end = Date.parse(period.end_at);
    if (Number.isNaN(start) || Number.isNaN(end) || end <= start) continue;
    let list = index.get(period.car_id);
    if (!list) index.set(period.car_id, (list = []));
    list.push([start, end]);
  }
  for (const list of index.values()) list.sort((a, b) => a[0] - b[0]);
  return index;
}

/** Whether the car is free for the whole rental [startMs, endMs). */
export function isCarAvailable(
  index: BusyIndex,
  carId: string,
  startMs: number,
  endMs: number,
): boolean {
  return overlapping(index, carId, startMs, endMs).length === 0;
}

/** The busy periods of a car that overlap [startMs, endMs). */
export function overlapping(
  index: BusyIndex,
  carId: string,
  startMs: number,
  endMs: number,
): Array<readonly [number, number]> {
  const list = index.get(carId);
  if (!list) return [];
  const hits: Array<readonly [number, number]> = [];
  for (const period of list) {
    // Sorted by start: no later period can overlap.
    if (period[0] >= endMs) break;
    if (overlaps(period[0], period[1], startMs, endMs)) hits.push(period);
  }
  return hits;
}

/** The periods of `carId` that overlap the rental [start, end) (ISO 8601 instants). */
export function busyOverlaps(
  periods: readonly BusyPeriod[],
  carId: string,
  start: string,
  end: string,
): BusyPeriod[] {
  const s = Date.parse(start);
  const e = Date.parse(end);
  return periods.filter(
    (p) => p.car_id === carId && overlaps(Date.parse(p.start_at), Date.parse(p.end_at), s, e),
  );
}

/** A car's busy periods that have not ended at `nowMs`, soonest first. */
export function upcomingBusy(
  index: BusyIndex,
  carId: string,
  nowMs: number,
): Array<readonly [number, number]> {
  return (index.get(carId) ?? []).filter((period) => period[1] > nowMs);
}
