import { describe, expect, it } from 'vitest';

import {
  cleanTypedParagraphs,
  cleanTypedText,
  hadHiddenCharacters,
  isMailableAddress,
} from '@/domain/typed-text';

describe('cleanTypedText', () => {
  it('removes direction marks, isolates, zero-width characters and the BOM', () => {
    expect(cleanTypedText('\u202bأمينة لعور\u202c')).toBe('أمينة لعور');
    expect(cleanTypedText('Amina \u2067Laouar\u2069')).toBe('Amina Laouar');
    expect(cleanTypedText('\ufeffYa\u200bcine\u200e')).toBe('Yacine');
  });
  it('turns line breaks and controls into single spaces and trims', () => {
    expect(cleanTypedText(' Karim\u2028Benali\n ')).toBe('Karim Benali');
    expect(cleanTypedText('Nadia\u0007  K.')).toBe('Nadia K.');
  });
  it('keeps what people mean to type: accents, Arabic, apostrophes, dashes', () => {
    for (const name of ['Zoé Aït-Ali', 'عبد القادر بن علي', "O'Neil", 'Lina B.']) {
      expect(cleanTypedText(name)).toBe(name);
      expect(hadHiddenCharacters(name)).toBe(false);
    }
  });
});

describe('cleanTypedParagraphs', () => {
  it('keeps line breaks of the requests and drops invisible marks', () => {
    expect(cleanTypedParagraphs('Siège bébé\r\n\u202bمن فضلك\u202c ')).toBe('Siège bébé\nمن فضلك');
  });
});

describe('hadHiddenCharacters', () => {
  it('finds what the server refuses', () => {
    expect(hadHiddenCharacters('A\u202eB')).toBe(true);
    expect(hadHiddenCharacters('A\u2028B')).toBe(true);
    expect(hadHiddenCharacters('A B')).toBe(false);
  });
});

describe('isMailableAddress', () => {
  it('is the server’s mailbox rule', () => {
    expect(isMailableAddress('amina.l+kiraa@example.dz')).toBe(true);
    expect(isMailableAddress('amina@exämple.dz')).toBe(false);
    expect(isMailableAddress('a@b')).toBe(false);
    expect(isMailableAddress(`${'a'.repeat(250)}@b.dz`)).toBe(false);
  });
});
