import { formatter } from '@lingui/format-po';
import { describe, expect, it } from 'vitest';

/**
 * Every catalog is complete: each message of the French source has a non-empty English and
 * Arabic translation that keeps the same placeholders ({name}) and tags (<0>…</0>).
 * (`npm run lint` separately checks that the committed catalogs match the source code.)
 */
const files = import.meta.glob<string>('./*/*.po', { query: '?raw', import: 'default', eager: true });
const po = formatter({ lineNumbers: false });

type Entry = { message?: string; translation?: string; obsolete?: boolean };

async function load(locale: string, catalog: string): Promise<Record<string, Entry>> {
  const content = files[`./${locale}/${catalog}.po`];
  if (content === undefined) throw new Error(`missing src/locales/${locale}/${catalog}.po`);
  const parsed = await po.parse(content, { locale, sourceLocale: 'fr', filename: `${catalog}.po` });
  return (parsed ?? {}) as Record<string, Entry>;
}

function tokens(text: string): string[] {
  const names = [...text.matchAll(/\{(\w+)[,}]/g)].map((m) => `{${m[1]}}`);
  const tags = [...text.matchAll(/<\/?(\d+)\/?>/g)].map((m) => m[0]);
  return [...new Set([...names, ...tags])].sort();
}

const catalogs = Object.keys(files)
  .filter((path) => path.startsWith('./fr/'))
  .map((path) => path.slice('./fr/'.length, -'.po'.length))
  .sort();

describe('translation catalogs', () => {
  it('exist for every catalog in French, English and Arabic', () => {
    expect(catalogs).toContain('core');
    for (const catalog of catalogs) {
      expect(files[`./en/${catalog}.po`], `en/${catalog}.po`).toBeTypeOf('string');
      expect(files[`./ar/${catalog}.po`], `ar/${catalog}.po`).toBeTypeOf('string');
    }
  });

  it.each(catalogs)('%s: every message is translated into English and Arabic', async (catalog) => {
    const source = await load('fr', catalog);
    const problems: string[] = [];
    for (const locale of ['en', 'ar']) {
      const target = await load(locale, catalog);
      for (const [id, entry] of Object.entries(source)) {
        if (entry.obsolete) continue;
        const message = entry.message ?? id;
        const translation = target[id]?.translation?.trim();
        if (!translation) {
          problems.push(`${locale}: missing "${message}"`);
          continue;
        }
        const expected = tokens(message);
        const actual = tokens(translation);
        if (expected.join() !== actual.join()) {
          problems.push(`${locale}: "${message}" keeps ${expected.join(' ')}, has ${actual.join(' ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
