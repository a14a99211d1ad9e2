/**
 * One reading of a phone number: the app's (src/domain/phone.ts) equals the database's
 * (`internal.normalize_phone`), which every RPC and the profiles use, on the ways people write
 * numbers and on random strings of digits, separators and signs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { normalizePhone } from '../../src/domain/phone.ts';
import { sql } from '../support/clients.ts';

async function databaseReading(values: string[]): Promise<(string | null)[]> {
  const rows = await sql<{ phone: string | null }>(
    `select internal.normalize_phone(v) as phone from unnest($1::text[]) with ordinality as t(v, n)
      order by n`,
    [values],
  );
  return rows.map((row) => row.phone);
}

describe('a phone number, read by the app and by the database', () => {
  it('reads the usual writings the same way', async () => {
    const typed = [
      '+213555123456',
      '+213 555 12 34 56',
      '0555 12 34 56',
      '0555-12-34-56',
      '(0555) 12.34.56',
      '00213555123456',
      '+2130555123456',
      '+33 6 12 34 56 78',
      '055512345',
      '+0213555123456',
      '+213 55',
      '',
      '00',
      '0',
    ];
    expect(await databaseReading(typed)).toEqual(typed.map(normalizePhone));
  });

  it('agrees on 2,000 random strings of digits, separators and signs', async () => {
    // A prefix people use, then digits with separators here and there, or any mix of the signs.
    const written = fc
      .tuple(
        fc.constantFrom('', '+', '00', '0', '+213', '+2130', '00213', '(0)', '+0'),
        fc.array(fc.constantFrom('0', '1', '5', '6', '7', '9', ' ', '-', '.'), {
          minLength: 5,
          maxLength: 16,
        }),
      )
      .map(([prefix, rest]) => prefix + rest.join(''));
    const anything = fc.string({
      unit: fc.constantFrom('0', '1', '2', '3', '5', '6', '9', '+', ' ', '-', '.', '(', ')', 'x'),
      maxLength: 20,
    });
    const samples = fc.sample(fc.oneof(written, anything), { numRuns: 2000, seed: 18 });
    // The sample reaches both answers, often.
    const read = samples.map(normalizePhone);
    expect(read.filter((phone) => phone !== null).length).toBeGreaterThan(300);
    expect(read.filter((phone) => phone === null).length).toBeGreaterThan(300);
    expect(await databaseReading(samples)).toEqual(read);
  });
});
