import { describe, expect, it } from 'vitest';

import { isolate } from '@/ui/bidi';

describe('isolate', () => {
  it('wraps text in first-strong isolate and pop-directional-isolate', () => {
    expect(isolate('Amina L.')).toBe('\u2068Amina L.\u2069');
    expect([...isolate('أمينة')].at(0)).toBe('\u2068');
    expect([...isolate('أمينة')].at(-1)).toBe('\u2069');
  });

  it('leaves an empty text empty', () => {
    expect(isolate('')).toBe('');
  });
});
