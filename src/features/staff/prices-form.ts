/**
 * A price and its three names as staff type them (docs/staff-prices.md), checked as the server
 * checks them (`internal.check_price`, `internal.check_catalogue_name`); the server checks again.
 */
import { LIMITS } from '@/domain/limits';
import type { Localized } from '@/domain/rows';

export type PriceProblem = 'invalid_price';
export type NameProblem = 'name_required' | 'name_too_long';

/** The whole DZD typed (spaces allowed as thousands separators), or null when it is not one. */
export function parsePrice(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d{1,7}$/.test(compact)) return null;
  const value = Number(compact);
  return value <= LIMITS.priceDzd ? value : null;
}

/** The problem of each language's name, none when all three may be sent. */
export function nameProblems(name: Localized): Partial<Record<keyof Localized, NameProblem>> {
  const problems: Partial<Record<keyof Localized, NameProblem>> = {};
  for (const lang of ['fr', 'en', 'ar'] as const) {
    const value = name[lang].trim();
    if (value === '') problems[lang] = 'name_required';
    else if (value.length > LIMITS.name) problems[lang] = 'name_too_long';
  }
  return problems;
}
