import { describe, expect, it } from 'vitest';

import { AVATAR_COLORS, avatarColor, avatarColorIndex, initials } from '@/features/auth/avatar';

describe('avatar', () => {
  it('has 12 colours and picks one by the character sum of the name', () => {
    expect(AVATAR_COLORS).toHaveLength(12);
    // 'A' = 65 → 65 % 12 = 5; 'AB' = 131 → 11; '' → 0
    expect(avatarColorIndex('A')).toBe(5);
    expect(avatarColorIndex('AB')).toBe(11);
    expect(avatarColorIndex('')).toBe(0);
    expect(avatarColorIndex('Amina Benali')).toBe(
      [...'Amina Benali'].reduce((s, c) => s + c.charCodeAt(0), 0) % 12,
    );
    expect(avatarColor('A')).toBe(AVATAR_COLORS[5]);
  });

  it('is the same colour for the same name and spreads names over the palette', () => {
    expect(avatarColor('Karim')).toBe(avatarColor('Karim'));
    const used = new Set(
      ['Amina', 'Karim', 'Yacine', 'Sara', 'Nadia', 'Omar', 'Lina', 'Walid'].map(avatarColorIndex),
    );
    expect(used.size).toBeGreaterThan(3);
  });

  it('takes the first letters of the first and last words', () => {
    expect(initials('amina benali')).toBe('AB');
    expect(initials('  Karim  ')).toBe('K');
    expect(initials('Mohamed El Amine Saidi')).toBe('MS');
    expect(initials('أمينة بن علي')).toBe('أع');
    expect(initials('')).toBe('');
  });
});
