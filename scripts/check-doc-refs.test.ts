import { describe, expect, it } from 'vitest';

import { problemsIn } from './check-doc-refs.ts';

const docs: Record<string, string> = {
  'docs/decisions.md': '# Decisions\n\n## Guest lookup (issues 13, 18)\n',
  'docs/product.md': '# Product\n\n## §9 Constants\n',
};
const readDoc = (path: string) => docs[path] ?? null;
const exists = (path: string) => path === 'src/domain/phone.ts';
const check = (file: string, text: string) =>
  problemsIn(file, text, exists, readDoc).map((p) => `${p.line}: ${p.text}`);

describe('references resolve inside the repository', () => {
  it('accepts a doc, a heading by the start of its name, a section, an existing path', () => {
    expect(
      check(
        'docs/x.md',
        'See docs/decisions.md, "Guest lookup" and docs/product.md §9, and `src/domain/phone.ts`.',
      ),
    ).toEqual([]);
  });

  it('refuses a missing doc, heading, section or path, and references outside', () => {
    expect(
      check(
        'docs/x.md',
        [
          'docs/gone.md',
          'docs/decisions.md, "Limits"',
          'docs/product.md §4',
          '`src/domain/gone.ts`',
          'as SPEC §2 says',
        ].join('\n'),
      ),
    ).toEqual([
      '1: docs/gone.md does not exist',
      '2: docs/decisions.md has no heading "Limits"',
      '3: docs/product.md has no section §4',
      '4: src/domain/gone.ts does not exist',
      '5: points outside the repository: as SPEC §2 says',
    ]);
  });

  it('checks code paths only in docs, and skips globs and placeholders', () => {
    expect(check('src/a.ts', '// `src/domain/gone.ts`')).toEqual([]);
    expect(check('README.md', '`src/features/<f>/x.ts` and `tests/**/*.ts`')).toEqual([]);
  });
});
