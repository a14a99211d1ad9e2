import { describe, expect, it } from 'vitest';

import { CONTACT_LINES, formatPhone, whatsappUrl } from '@/infra/whatsapp';

describe('WhatsApp lines', () => {
  it('has the three lines of the spec, each with its own number', () => {
    expect(CONTACT_LINES.map((l) => l.key)).toEqual(['reservation', 'support', 'delivery']);
    expect(new Set(CONTACT_LINES.map((l) => l.phone)).size).toBe(3);
    for (const line of CONTACT_LINES) expect(line.phone).toMatch(/^\+\d{8,15}$/);
  });

  it('builds a wa.me link with digits only and an encoded message', () => {
    expect(whatsappUrl('+213 560 00 10 10', 'Bonjour Kiraa, j’ai une question & plus ?')).toBe(
      'https://wa.me/213560001010?text=Bonjour%20Kiraa%2C%20j%E2%80%99ai%20une%20question%20%26%20plus%20%3F',
    );
    expect(whatsappUrl('+213560001010', '')).toBe('https://wa.me/213560001010');
  });

  it('formats Algerian numbers in groups and leaves others whole', () => {
    expect(formatPhone('+213560001010')).toBe('+213 560 00 10 10');
    expect(formatPhone('+33612345678')).toBe('+33612345678');
  });
});
