import { describe, expect, it } from 'vitest';

import { LIMITS } from '@/domain/limits';

import { nameProblems, parsePrice } from '@/features/staff/prices-form';

describe('prices as staff type them', () => {
  it('takes whole DZD from 0 to the limit, with spaces between thousands', () => {
    expect(parsePrice('0')).toBe(0);
    expect(parsePrice('1 500')).toBe(1500);
    expect(parsePrice('7\u202f000')).toBe(7000);
    expect(parsePrice(String(LIMITS.priceDzd))).toBe(LIMITS.priceDzd);
    expect(parsePrice(String(LIMITS.priceDzd + 1))).toBeNull();
    for (const bad of ['', '-1', '10.5', '1e3', 'abc', '12,5']) expect(parsePrice(bad)).toBeNull();
  });

  it('wants the three names, each at most the name limit', () => {
    expect(nameProblems({ fr: 'GPS', en: 'GPS', ar: 'جي بي إس' })).toEqual({});
    expect(nameProblems({ fr: ' ', en: 'GPS', ar: 'x'.repeat(LIMITS.name + 1) })).toEqual({
      fr: 'name_required',
      ar: 'name_too_long',
    });
  });
});
