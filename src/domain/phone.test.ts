import { describe, expect, it } from 'vitest';

import { normalizePhone } from '@/domain/phone';

describe('normalizePhone', () => {
  it('reads a number as Algerians type it, in every usual writing, as one number', () => {
    for (const typed of [
      '+213555123456',
      '+213 555 12 34 56',
      '0555 12 34 56',
      '0555-12-34-56',
      '(0555) 12.34.56',
      '00213555123456',
      '00 213 555 12 34 56',
      '+2130555123456',
      '+213 0555 12 34 56',
    ]) {
      expect(normalizePhone(typed), typed).toBe('+213555123456');
    }
    expect(normalizePhone('+33 6 12 34 56 78')).toBe('+33612345678');
    expect(normalizePhone('0033612345678')).toBe('+33612345678');
  });

  it('refuses what cannot be a phone number', () => {
    for (const typed of [
      '',
      '055512345',
      '+213 55',
      '+213abc123456',
      '12345678',
      '+0123456789',
      '0055512',
    ]) {
      expect(normalizePhone(typed), typed).toBeNull();
    }
  });
});
