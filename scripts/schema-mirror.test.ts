import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fileNameOf, mirrorDifferences, writeMirror } from './schema-mirror.ts';

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiraa-mirror-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the live schema mirror (supabase/schema)', () => {
  it('names a file after its object, with nothing a shell must quote', () => {
    expect(fileNameOf('create_booking')).toBe('create_booking.sql');
    expect(fileNameOf('Admins read every booking')).toBe('admins-read-every-booking.sql');
    expect(fileNameOf('normalize_phone(value text)')).toBe('normalize_phone-value-text.sql');
    expect(fileNameOf('Clients’ « files »')).toBe('clients-files.sql');
  });

  it('finds a changed, a missing and a dead rule; nothing once rewritten', () => {
    const root = scratch();
    writeMirror(
      root,
      new Map([
        ['public/functions/a.sql', 'a1'],
        ['public/functions/gone.sql', 'old'],
      ]),
    );
    const live = new Map([
      ['public/functions/a.sql', 'a2'],
      ['internal/functions/b.sql', 'b'],
    ]);
    expect(mirrorDifferences(root, live)).toEqual([
      'differs: public/functions/a.sql',
      'missing: internal/functions/b.sql',
      'not live: public/functions/gone.sql',
    ]);
    writeMirror(root, live);
    expect(mirrorDifferences(root, live)).toEqual([]);
    expect(readFileSync(join(root, 'internal/functions/b.sql'), 'utf8')).toBe('b');
  });
});
