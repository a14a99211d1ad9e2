import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  buildBusyIndex,
  busyOverlaps,
  isCarAvailable,
  overlapping,
  overlaps,
  upcomingBusy,
  type BusyPeriod,
} from '@/domain/availability';

const t = (iso: string) => Date.parse(iso);

const index = buildBusyIndex([
  // Out of order on purpose: the index sorts by start.
  { key: 'b', car_id: 'car-1', start_at: '2027-05-20T08:00:00Z', end_at: '2027-05-22T08:00:00Z' },
  { key: 'a', car_id: 'car-1', start_at: '2027-05-01T08:00:00Z', end_at: '2027-05-03T08:00:00Z' },
  {
    key: 'c',
    car_id: 'car-2',
    start_at: '2027-05-01T08:00:00+01:00',
    end_at: '2027-05-02T08:00:00+01:00',
  },
  // Malformed rows are ignored instead of blocking the car forever.
  { key: 'd', car_id: 'car-3', start_at: 'not a date', end_at: '2027-05-02T08:00:00Z' },
  { key: 'e', car_id: 'car-3', start_at: '2027-05-02T08:00:00Z', end_at: '2027-05-01T08:00:00Z' },
]);

describe('busy periods', () => {
  it('sorts each car’s periods and drops malformed ones', () => {
    expect(index.get('car-1')).toEqual([
      [t('2027-05-01T08:00:00Z'), t('2027-05-03T08:00:00Z')],
      [t('2027-05-20T08:00:00Z'), t('2027-05-22T08:00:00Z')],
    ]);
    expect(index.has('car-3')).toBe(false);
  });

  it('finds a car free between two rentals and busy across one', () => {
    expect(
      isCarAvailable(index, 'car-1', t('2027-05-05T08:00:00Z'), t('2027-05-10T08:00:00Z')),
    ).toBe(true);
    expect(
      isCarAvailable(index, 'car-1', t('2027-05-02T08:00:00Z'), t('2027-05-04T08:00:00Z')),
    ).toBe(false);
    // A long rental that contains a whole busy period.
    expect(
      isCarAvailable(index, 'car-1', t('2027-05-10T08:00:00Z'), t('2027-06-10T08:00:00Z')),
    ).toBe(false);
  });

  it('treats periods as half-open [start, end)', () => {
    expect(
      isCarAvailable(index, 'car-1', t('2027-05-03T08:00:00Z'), t('2027-05-04T08:00:00Z')),
    ).toBe(true);
    expect(
      isCarAvailable(index, 'car-1', t('2027-04-28T08:00:00Z'), t('2027-05-01T08:00:00Z')),
    ).toBe(true);
    expect(
      isCarAvailable(index, 'car-1', t('2027-04-28T08:00:00Z'), t('2027-05-01T08:00:01Z')),
    ).toBe(false);
  });

  it('compares instants, whatever the offset they were written with', () => {
    // car-2 is busy from 07:00Z: a rental ending at 07:30Z overlaps.
    expect(
      isCarAvailable(index, 'car-2', t('2027-05-01T06:00:00Z'), t('2027-05-01T07:30:00Z')),
    ).toBe(false);
    expect(
      isCarAvailable(index, 'car-2', t('2027-05-01T06:00:00Z'), t('2027-05-01T07:00:00Z')),
    ).toBe(true);
  });

  it('treats a car without busy periods as free', () => {
    expect(isCarAvailable(index, 'car-9', 0, Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('lists the overlapping and the upcoming periods', () => {
    expect(
      overlapping(index, 'car-1', t('2027-05-02T00:00:00Z'), t('2027-05-21T00:00:00Z')),
    ).toHaveLength(2);
    expect(upcomingBusy(index, 'car-1', t('2027-05-10T00:00:00Z'))).toEqual([
      [t('2027-05-20T08:00:00Z'), t('2027-05-22T08:00:00Z')],
    ]);
  });
});

describe('the overlap rule', () => {
  it('is symmetric and half-open', () => {
    expect(overlaps(0, 10, 10, 20)).toBe(false);
    expect(overlaps(10, 20, 0, 10)).toBe(false);
    expect(overlaps(0, 11, 10, 20)).toBe(true);
    expect(overlaps(12, 13, 10, 20)).toBe(true);
    expect(overlaps(0, 30, 10, 20)).toBe(true);
  });

  it('gives the same answer through the index (car screens) and the list (booking)', () => {
    const hour = 60 * 60 * 1000;
    const base = Date.parse('2027-05-01T00:00:00Z');
    const period = fc
      .record({
        car: fc.constantFrom('car-1', 'car-2'),
        from: fc.nat(200),
        hours: fc.integer({ min: 1, max: 72 }),
      })
      .map(({ car, from, hours }): BusyPeriod => {
        const start = new Date(base + from * hour).toISOString();
        return {
          key: `${car}|${start}`,
          car_id: car,
          start_at: start,
          end_at: new Date(base + (from + hours) * hour).toISOString(),
        };
      });
    fc.assert(
      fc.property(
        fc.array(period, { maxLength: 12 }),
        fc.nat(200),
        fc.integer({ min: 1, max: 96 }),
        (periods, from, hours) => {
          const start = base + from * hour;
          const end = start + hours * hour;
          const index = buildBusyIndex(periods);
          const listed = busyOverlaps(
            periods,
            'car-1',
            new Date(start).toISOString(),
            new Date(end).toISOString(),
          );
          expect(listed.length).toBe(overlapping(index, 'car-1', start, end).length);
          expect(listed.length === 0).toBe(isCarAvailable(index, 'car-1', start, end));
        },
      ),
    );
  });
});
