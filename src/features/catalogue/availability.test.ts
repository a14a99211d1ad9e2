import { describe, expect, it } from 'vitest';

import {
  buildBusyIndex,
  isCarAvailable,
  overlapping,
  upcomingBusy,
} from '@/features/catalogue/availability';

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
