import { describe, expect, it } from 'vitest';

import { bookingsCsv, type ExportBooking } from '@/features/staff/export';

const row = (over: Partial<ExportBooking> = {}): ExportBooking => ({
  reference: 'KR-AB12-CD34',
  start_at: '2027-03-01T09:00:00Z',
  end_at: '2027-03-04T09:00:00Z',
  status: 'completed',
  total_dzd: 21500,
  price: { days: 3, deposit: 40000 },
  guest_name: null,
  car: { name: 'Renault Clio 5' },
  customer: { full_name: 'Lina Bouzid' },
  ...over,
});

describe('bookingsCsv', () => {
  it('writes the accountant’s columns, Algiers times and whole DZD', () => {
    const csv = bookingsCsv([row()]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'reference;pickup;return;car;customer;days;total_dzd;deposit_dzd;status',
      'KR-AB12-CD34;2027-03-01 10:00;2027-03-04 10:00;Renault Clio 5;Lina Bouzid;3;21500;40000;completed',
      '',
    ]);
  });

  it('names a guest, quotes separators and quotes, and defuses formulas', () => {
    const csv = bookingsCsv([
      row({ customer: null, guest_name: '=HYPERLINK("x")', car: { name: 'Clio; "5"' } }),
    ]);
    const line = csv.split('\r\n')[1]!;
    expect(line).toContain(';"Clio; ""5""";');
    expect(line).toContain(`;"'=HYPERLINK(""x"")";`);
  });

  it('exports 10,000 bookings quickly (time printed)', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      row({ reference: `KR-${String(i).padStart(4, '0')}-AAAA`, total_dzd: i }),
    );
    const started = performance.now();
    const csv = bookingsCsv(rows);
    const ms = performance.now() - started;
    console.info(`CSV of 10,000 bookings: ${Math.round(ms)} ms, ${csv.length} characters`);
    expect(csv.split('\r\n')).toHaveLength(10_002);
    expect(ms).toBeLessThan(2_000);
  });
});
