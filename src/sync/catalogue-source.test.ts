import { describe, expect, it } from 'vitest';

import { parseTstzRange } from '@/sync/catalogue-source';

describe('parseTstzRange', () => {
  it('reads the bounds of a Postgres range as ISO instants', () => {
    expect(parseTstzRange('["2027-01-01 10:00:00+00","2027-01-03 10:00:00+01")')).toEqual({
      start_at: '2027-01-01T10:00:00.000Z',
      end_at: '2027-01-03T09:00:00.000Z',
    });
    expect(parseTstzRange('[2027-01-01T10:00:00.5+00:00,2027-01-02T10:00:00+00:00)')).toEqual({
      start_at: '2027-01-01T10:00:00.500Z',
      end_at: '2027-01-02T10:00:00.000Z',
    });
    expect(parseTstzRange('empty')).toBeNull();
    expect(parseTstzRange('[,2027-01-02 10:00:00+00)')).toBeNull();
  });
});
