import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  ALWAYS_OPEN,
  formatMinutes,
  hoursOn,
  isOpenAt,
  isWeekHours,
  openingCheck,
  openingHoursProblem,
  parseMinutes,
  timeChoices,
  type WeekHours,
} from '@/domain/opening-hours';

const city: WeekHours = [
  [480, 1140],
  [480, 1140],
  [480, 1140],
  [480, 1140],
  [480, 1140],
  null,
  [480, 1140],
];
const agency = { id: 'city', opening_hours: city, closed_dates: ['2027-03-15'] };
const airport = {
  id: 'airport',
  opening_hours: Array.from({ length: 7 }, (): [number, number] => [360, 1380]),
  closed_dates: [],
};

describe('opening hours (Algiers time, whatever the device’s zone)', () => {
  it('opens a city agency 08:00–19:00, both ends included, and closes it on Friday', () => {
    // 2027-03-11 is a Thursday, 2027-03-12 a Friday.
    expect(isOpenAt(agency, '2027-03-11T08:00:00+01:00')).toBe(true);
    expect(isOpenAt(agency, '2027-03-11T07:59:59+01:00')).toBe(false);
    expect(isOpenAt(agency, '2027-03-11T19:00:00+01:00')).toBe(true);
    expect(isOpenAt(agency, '2027-03-11T19:00:01+01:00')).toBe(false);
    // The same instant written in UTC and in another offset.
    expect(isOpenAt(agency, '2027-03-11T07:00:00Z')).toBe(true);
    expect(isOpenAt(agency, '2027-03-11T02:00:00-05:00')).toBe(true);
    expect(openingCheck(agency, '2027-03-12T10:00:00+01:00')).toEqual({
      open: false,
      reason: 'closed_weekday',
      date: '2027-03-12',
      weekday: 5,
      hours: null,
    });
    expect(openingCheck(agency, '2027-03-15T10:00:00+01:00')).toMatchObject({
      open: false,
      reason: 'closed_date',
    });
    // 23:30 UTC on Thursday is 00:30 on Friday in Algiers.
    expect(openingCheck(airport, '2027-03-11T23:30:00Z')).toMatchObject({
      reason: 'outside_hours',
      date: '2027-03-12',
      hours: [360, 1380],
    });
  });

  it('treats a place synced before the hours existed as always open', () => {
    expect(isOpenAt({}, '2027-03-12T03:00:00Z')).toBe(true);
    expect(hoursOn({}, '2027-03-12')).toEqual({ hours: [0, 1440] });
  });

  it('offers only times the rule accepts, and none on a closed day', () => {
    expect(timeChoices(agency, '2027-03-12')).toEqual([]);
    expect(timeChoices(agency, '2027-03-15')).toEqual([]);
    const thursday = timeChoices(agency, '2027-03-11');
    expect(thursday[0]).toBe('08:00');
    expect(thursday.at(-1)).toBe('19:00');
    expect(timeChoices(airport, '2027-03-12')).toHaveLength(35);
    expect(timeChoices({ opening_hours: ALWAYS_OPEN }, '2027-03-12').at(-1)).toBe('23:30');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 1, max: 1440 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(15, 30, 60),
        (a, b, weekday, step) => {
          const [open, close] = a < b ? [a, b] : [b - 1, a + 1 > 1440 ? 1440 : a + 1];
          const week: WeekHours = Array.from({ length: 7 }, (_, i) =>
            i === weekday ? [open, close] : null,
          );
          // 2027-03-07 is a Sunday (weekday 0).
          const date = `2027-03-${String(7 + weekday).padStart(2, '0')}`;
          for (const time of timeChoices({ opening_hours: week }, date, step)) {
            expect(isOpenAt({ opening_hours: week }, `${date}T${time}:00+01:00`)).toBe(true);
          }
        },
      ),
    );
  });

  it('checks the pickup place at the start and the return place at the end', () => {
    const request = {
      start_at: '2027-03-11T10:00:00+01:00',
      end_at: '2027-03-12T10:00:00+01:00',
      pickup_location_id: 'city',
      dropoff_location_id: 'city',
    };
    const places = [agency, airport];
    expect(openingHoursProblem(request, places)).toBe('return_outside_hours');
    expect(openingHoursProblem({ ...request, dropoff_location_id: 'airport' }, places)).toBeNull();
    expect(openingHoursProblem({ ...request, start_at: '2027-03-12T09:00:00+01:00' }, places)).toBe(
      'pickup_outside_hours',
    );
    expect(
      openingHoursProblem(
        { ...request, pickup_location_id: null, dropoff_location_id: 'x' },
        places,
      ),
    ).toBeNull();
  });

  it('reads and writes times, and knows a valid week', () => {
    expect(formatMinutes(1440)).toBe('24:00');
    expect(formatMinutes(65)).toBe('01:05');
    expect(parseMinutes('24:00')).toBe(1440);
    expect(parseMinutes('24:01')).toBeNull();
    expect(parseMinutes('08:60')).toBeNull();
    expect(isWeekHours(city)).toBe(true);
    expect(isWeekHours(city.slice(1))).toBe(false);
    expect(isWeekHours([...city.slice(1), [600, 600]])).toBe(false);
    expect(isWeekHours([...city.slice(1), [600.5, 700]])).toBe(false);
  });
});
