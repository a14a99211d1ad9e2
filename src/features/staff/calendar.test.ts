import { describe, expect, it } from 'vitest';

import {
  addDays,
  blockBounds,
  calendarDays,
  calendarRows,
  isToday,
  rangeBounds,
  type CalendarBlock,
  type CalendarBooking,
  type CalendarCell,
} from '@/features/staff/calendar';

const booking = (over: Partial<CalendarBooking> = {}): CalendarBooking => ({
  id: 'b1',
  reference: 'KR-AAAA-BBBB',
  car_id: 'car1',
  status: 'reserved',
  start_at: '2027-03-02T10:00:00+01:00',
  end_at: '2027-03-04T10:00:00+01:00',
  ...over,
});

const block = (over: Partial<CalendarBlock> = {}): CalendarBlock => ({
  id: 'k1',
  car_id: 'car1',
  start_at: '2027-03-05T00:00:00+01:00',
  end_at: '2027-03-07T00:00:00+01:00',
  reason: 'Vidange',
  ...over,
});

describe('calendar days', () => {
  it('counts days across month ends and leap days', () => {
    expect(calendarDays('2028-02-27', 4)).toEqual([
      '2028-02-27',
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('bounds a range in Algiers time (UTC+1)', () => {
    expect(rangeBounds(['2027-03-01', '2027-03-02'])).toEqual({
      from: '2027-02-28T23:00:00.000Z',
      to: '2027-03-02T23:00:00.000Z',
    });
  });

  it('marks today in Algiers, not in UTC', () => {
    // 23:30 UTC on 1 March is 00:30 on 2 March in Algiers.
    expect(isToday('2027-03-02', new Date('2027-03-01T23:30:00Z'))).toBe(true);
    expect(isToday('2027-03-01', new Date('2027-03-01T23:30:00Z'))).toBe(false);
  });

  it('turns a day range into a whole-day block, the last day included', () => {
    expect(blockBounds('2027-03-05', '2027-03-06')).toEqual({
      start_at: '2027-03-05T00:00:00+01:00',
      end_at: '2027-03-07T00:00:00+01:00',
    });
  });
});

/** A row as text: '.' free, a hold's id ('!' on its first day), '+' between holds of one day. */
function ids(cells: CalendarCell[]): string[] {
  return cells.map((c) =>
    c.length === 0
      ? '.'
      : c
          .map((h) => `${h.kind === 'booking' ? h.booking.id : h.block.id}${h.first ? '!' : ''}`)
          .join('+'),
  );
}

describe('calendarRows', () => {
  const days = calendarDays('2027-03-01', 7);

  it('places bookings and blocks on the days they cover, first day marked', () => {
    const rows = calendarRows(['car1', 'car2'], days, [booking()], [block()]);
    const kinds = rows
      .get('car1')!
      .map((c) =>
        c.length === 0
          ? '.'
          : c.map((h) => `${h.kind === 'booking' ? 'B' : 'K'}${h.first ? '!' : ''}`).join('+'),
      );
    // 1 free; 2–4 booking (returned 4 March 10:00); 5–6 block (ends 7 March 00:00); 7 free.
    expect(kinds).toEqual(['.', 'B!', 'B', 'B', 'K!', 'K', '.']);
    expect(rows.get('car2')!.every((c) => c.length === 0)).toBe(true);
  });

  it('tells two bookings on consecutive days apart', () => {
    const rows = calendarRows(
      ['car1'],
      days,
      [
        booking({ end_at: '2027-03-03T09:00:00+01:00' }),
        booking({
          id: 'b2',
          start_at: '2027-03-03T12:00:00+01:00',
          end_at: '2027-03-04T12:00:00+01:00',
        }),
      ],
      [],
    );
    // 3 March: b1 returned at 09:00 and b2 picked up at 12:00, both shown.
    expect(ids(rows.get('car1')!)).toEqual(['.', 'b1!', 'b1+b2!', 'b2', '.', '.', '.']);
  });

  it('shows both bookings on the day one ends and the next starts, in order', () => {
    const rows = calendarRows(
      ['car1'],
      days,
      [
        // Listed in the other order: the day still shows the one that ends first.
        booking({
          id: 'b2',
          start_at: '2027-03-04T14:00:00+01:00',
          end_at: '2027-03-06T10:00:00+01:00',
        }),
        booking({ end_at: '2027-03-04T10:00:00+01:00' }),
      ],
      [block({ start_at: '2027-03-06T12:00:00+01:00', end_at: '2027-03-08T00:00:00+01:00' })],
    );
    // 4 March: b1 returned at 10:00, b2 picked up at 14:00. 6 March: b2 returned, the block starts.
    expect(ids(rows.get('car1')!)).toEqual(['.', 'b1!', 'b1', 'b1+b2!', 'b2', 'b2+k1!', 'k1']);
  });

  it('shows a booking that began before the range from the first day', () => {
    const rows = calendarRows(
      ['car1'],
      days,
      [booking({ start_at: '2027-02-20T10:00:00+01:00', status: 'in_progress' })],
      [],
    );
    const first = rows.get('car1')![0]!;
    expect(first).toMatchObject([{ kind: 'booking', first: true }]);
  });
});
