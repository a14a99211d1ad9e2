import type { BusyPeriod } from '@/infra/db';

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

/**
 * Whether the car is free for the whole rental [startMs, endMs). Busy periods are half-open
 * ranges like Postgres' tstzrange '[)': a rental may start the very minute another one ends.
 */
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
    if (period[0] >= endMs) break;
    if (period[1] > startMs) hits.push(period);
  }
  return hits;
}

/** A car's busy periods that have not ended at `nowMs`, soonest first. */
export function upcomingBusy(
  index: BusyIndex,
  carId: string,
  nowMs: number,
): Array<readonly [number, number]> {
  return (index.get(carId) ?? []).filter((period) => period[1] > nowMs);
}
