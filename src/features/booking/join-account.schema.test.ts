import { describe, expect, it } from 'vitest';

import { accountFieldsSchema } from '@/features/booking/join-account.schema';

/** The fields the schema refuses in `value`. */
function refused(value: unknown) {
  const result = accountFieldsSchema.safeParse(value);
  return result.success ? [] : [...new Set(result.error.issues.map((i) => i.path[0]))];
}

describe('accountFieldsSchema (a guest opening an account)', () => {
  it('takes the age as typed and the address trimmed', () => {
    expect(accountFieldsSchema.parse({ age: '18', address: '  12 rue Didouche, Alger ' })).toEqual({
      age: 18,
      address: '12 rue Didouche, Alger',
    });
  });

  it('refuses an age outside 18–120 or not a whole number', () => {
    for (const age of ['17', '121', '20.5', 'abc']) {
      expect(refused({ age, address: 'Oran' })).toEqual(['age']);
    }
    expect(refused({ age: '120', address: 'Oran' })).toEqual([]);
  });

  it('refuses an empty address, one over 200 characters, or one with control characters', () => {
    for (const address of ['   ', 'a'.repeat(201), 'Oran\u0007']) {
      expect(refused({ age: '30', address })).toEqual(['address']);
    }
    expect(refused({ age: '30', address: 'a'.repeat(200) })).toEqual([]);
  });
});
