import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { hasBookingErrorMessage, unshownErrorCodes } from '../src/domain/booking-errors.ts';

/** Every .sql file of the live schema (supabase/schema, one file per rule). */
function liveSql(dir = join(process.cwd(), 'supabase/schema')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? liveSql(join(dir, entry.name))
      : entry.name.endsWith('.sql')
        ? [readFileSync(join(dir, entry.name), 'utf8')]
        : [],
  );
}

/** The codes SQL raises (internal.fail…, raise … message =) or answers (`'reason', '…'`). */
const CODE =
  /(?:internal\.fail(?:_limit|_hold_limit)?\(\s*'([a-z_]+)'|'reason',\s*'([a-z_]+)'|message\s*=\s*'([a-z_]+)')/g;

function sqlCodes(): string[] {
  const codes = new Set<string>();
  for (const text of liveSql()) {
    for (const match of text.matchAll(CODE)) codes.add((match[1] ?? match[2] ?? match[3])!);
  }
  return [...codes].sort();
}

describe('error codes: one list, every code SQL can answer has a message', () => {
  it('finds the codes in the live schema (the reading itself works)', () => {
    const codes = sqlCodes();
    expect(codes).toEqual(
      expect.arrayContaining(['car_unavailable', 'rental_too_long', 'rate_limited']),
    );
    expect(codes.length).toBeGreaterThan(40);
  });

  it('has a message (French source, translated by the catalogs) or a reason not to show it', () => {
    const missing = sqlCodes().filter(
      (code) => !hasBookingErrorMessage(code) && !(code in unshownErrorCodes),
    );
    expect(missing).toEqual([]);
  });

  it('lists as unshown only codes SQL really answers', () => {
    const codes = sqlCodes();
    expect(Object.keys(unshownErrorCodes).filter((code) => !codes.includes(code))).toEqual([]);
  });
});
