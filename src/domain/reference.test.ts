import { describe, expect, it } from 'vitest';

import {
  CROCKFORD_ALPHABET,
  generateReference,
  isReference,
  normalizeReference,
} from '@/domain/reference';

describe('generateReference', () => {
  it('has the KR-XXXX-XXXX shape in Crockford base32', () => {
    for (let i = 0; i < 500; i += 1) {
      const ref = generateReference();
      expect(ref).toMatch(/^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(isReference(ref)).toBe(true);
    }
  });

  it('maps each random byte to one symbol (byte & 31), without bias', () => {
    const bytes = [0, 31, 32, 255, 10, 17, 200, 64];
    const ref = generateReference((b) => {
      b.set(bytes);
      return b;
    });
    const expected = bytes.map((n) => CROCKFORD_ALPHABET[n & 31]).join('');
    expect(ref).toBe(`KR-${expected.slice(0, 4)}-${expected.slice(4)}`);
    expect(ref).toBe('KR-0Z0Z-AH80');
  });

  it('uses crypto.getRandomValues and rarely repeats', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateReference()));
    expect(seen.size).toBe(2000);
  });

  it('never uses the letters I, L, O, U', () => {
    expect(CROCKFORD_ALPHABET).toHaveLength(32);
    expect(CROCKFORD_ALPHABET).not.toMatch(/[ILOU]/);
  });
});

describe('isReference', () => {
  it('rejects other shapes', () => {
    for (const bad of ['', 'KR-7K3M-9QX', 'kr-7k3m-9qxd', 'KR-7K3M-9QXU', 'XX-7K3M-9QXD', 7]) {
      expect(isReference(bad)).toBe(false);
    }
    expect(isReference('KR-7K3M-9QXD')).toBe(true);
  });
});

describe('normalizeReference', () => {
  it('reads what people type', () => {
    expect(normalizeReference('kr-7k3m-9qxd')).toBe('KR-7K3M-9QXD');
    expect(normalizeReference(' 7K3M 9QXD ')).toBe('KR-7K3M-9QXD');
    expect(normalizeReference('KR-OIL1-0000')).toBe('KR-0111-0000');
  });

  it('returns null when it cannot be a reference', () => {
    expect(normalizeReference('KR-7K3M')).toBeNull();
    expect(normalizeReference('KR-7K3M-9QXU')).toBeNull();
    expect(normalizeReference('hello world')).toBeNull();
  });
});
