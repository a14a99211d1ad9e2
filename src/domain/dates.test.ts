import { describe, expect, it } from 'vitest';

import { algiersToIso, algiersToday, formatDateTime, isoToAlgiers, rentalDays } from './dates';

describe('Algiers time', () => {
  it('turns an Algiers wall-clock time into an instant with its +01:00 offset', () => {
    expect(algiersToIso('2027-03-12', '10:00')).toBe('2027-03-12T10:00:00+01:00');
    expect(new Date(algiersToIso('2027-03-12', '00:30')!).toISOString()).toBe(
      '2027-03-11T23:30:00.000Z',
    );
  });

  it('refuses dates and times that do not exist', () => {
    expect(algiersToIso('2027-02-30', '10:00')).toBeNull();
    expect(algiersToIso('2027-03-12', '24:00')).toBeNull();
    expect(algiersToIso('', '10:00')).toBeNull();
    expect(algiersToIso('2027-03-12', '')).toBeNull();
  });

  it('reads an instant back as Algiers wall-clock time, whatever the device zone', () => {
    expect(isoToAlgiers('2027-03-11T23:30:00Z')).toEqual({ date: '2027-03-12', time: '00:30' });
    expect(algiersToday(new Date('2027-12-31T23:10:00Z'))).toBe('2028-01-01');
  });

  it('formats in Algiers time for each language', () => {
    const iso = '2027-03-11T23:30:00Z';
    expect(formatDateTime(iso, 'fr')).toContain('00:30');
    expect(formatDateTime(iso, 'en')).toContain('00:30');
    expect(formatDateTime(iso, 'ar')).toContain('00:30');
  });

  it('counts started 24-hour periods, at least one', () => {
    expect(rentalDays('2027-03-12T10:00:00+01:00', '2027-03-13T10:00:00+01:00')).toBe(1);
    expect(rentalDays('2027-03-12T10:00:00+01:00', '2027-03-13T10:01:00+01:00')).toBe(2);
    expect(rentalDays('2027-03-12T10:00:00+01:00', '2027-03-12T12:00:00+01:00')).toBe(1);
  });
});
