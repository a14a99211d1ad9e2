import { describe, expect, it } from 'vitest';

import { formatDzd } from './money';

describe('formatDzd', () => {
  it('shows whole dinars with the DZD code in every language', () => {
    for (const locale of ['fr', 'en', 'ar'] as const) {
      const text = formatDzd(12500, locale);
      expect(text).toContain('DZD');
      expect(text.replace(/\D/g, '')).toBe('12500');
    }
  });
});
