/**
 * The mails' words live in SQL (internal.mail_texts, internal.outcome_mail_texts: docs/i18n.md,
 * "Where translated text lives"): every text exists in French, English and Arabic, none is empty,
 * the placeholders agree, and the Arabic is Arabic.
 */
import { describe, expect, it } from 'vitest';

import { sql } from '../support/clients.ts';

const LOCALES = ['fr', 'en', 'ar'] as const;

async function texts(fn: string): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const locale of LOCALES) {
    const [row] = await sql<{ t: Record<string, unknown> }>(`select internal.${fn}($1) as t`, [
      locale,
    ]);
    out[locale] = row!.t;
  }
  return out;
}

/** Every string in a value (texts may be nested objects, per mail kind). */
function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  }
  return [];
}

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}|%s/g)].map((m) => m[0]).sort();

describe.each(['mail_texts', 'outcome_mail_texts'])('internal.%s', (fn) => {
  it('has the same texts, none empty, in French, English and Arabic', async () => {
    const all = await texts(fn);
    const fr = new Map(strings(all.fr));
    expect(fr.size).toBeGreaterThan(3);
    for (const locale of ['en', 'ar'] as const) {
      const other = new Map(strings(all[locale]));
      expect([...other.keys()].sort(), locale).toEqual([...fr.keys()].sort());
      for (const [key, text] of other) {
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(fr.get(key)!));
        if (locale === 'ar' && /[A-Za-z]{4}/.test(fr.get(key)!)) {
          expect(text, `ar ${key}`).toMatch(/[\u0600-\u06FF]/);
        }
      }
    }
  });
});
