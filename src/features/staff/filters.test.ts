import { describe, expect, it } from 'vitest';

import { filtersToParams, parseFilters } from '@/features/staff/filters';

describe('board filters in the address', () => {
  it('defaults to the pending bookings, without dates or search', () => {
    expect(parseFilters(new URLSearchParams())).toEqual({
      status: 'pending',
      from: null,
      to: null,
      search: '',
    });
    expect(filtersToParams(parseFilters(new URLSearchParams())).toString()).toBe('');
  });

  it('reads and writes every filter, and round-trips', () => {
    const params = new URLSearchParams('status=reserved&from=2027-03-01&to=2027-03-31&q=KR-7K3M');
    const query = parseFilters(params);
    expect(query).toEqual({
      status: 'reserved',
      from: '2027-03-01',
      to: '2027-03-31',
      search: 'KR-7K3M',
    });
    expect(parseFilters(filtersToParams(query))).toEqual(query);
    expect(parseFilters(new URLSearchParams('status=all')).status).toBe('all');
  });

  it('ignores unknown statuses and impossible dates, and puts dates in order', () => {
    expect(parseFilters(new URLSearchParams('status=deleted')).status).toBe('pending');
    expect(parseFilters(new URLSearchParams('from=2027-02-30&to=tomorrow'))).toMatchObject({
      from: null,
      to: null,
    });
    expect(parseFilters(new URLSearchParams('from=2027-04-02&to=2027-04-01'))).toMatchObject({
      from: '2027-04-01',
      to: '2027-04-02',
    });
  });

  it('trims the search it writes back', () => {
    const params = filtersToParams({ status: 'pending', from: null, to: null, search: '  Lina ' });
    expect(params.get('q')).toBe('Lina');
  });
});
