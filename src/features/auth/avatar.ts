/**
 * The user menu's avatar: initials on a colour chosen from 12 by the character sum of the name
 * (docs/product.md §9), so a person keeps the same colour on every device.
 */
/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
export const AVATAR_COLORS = [
  'bg-red-200 text-red-900 dark:bg-red-900 dark:text-red-100',
  'bg-orange-200 text-orange-900 dark:bg-orange-900 dark:text-orange-100',
  'bg-amber-200 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  'bg-lime-200 text-lime-900 dark:bg-lime-900 dark:text-lime-100',
  'bg-green-200 text-green-900 dark:bg-green-900 dark:text-green-100',
  'bg-teal-200 text-teal-900 dark:bg-teal-900 dark:text-teal-100',
  'bg-cyan-200 text-cyan-900 dark:bg-cyan-900 dark:text-cyan-100',
  'bg-sky-200 text-sky-900 dark:bg-sky-900 dark:text-sky-100',
  'bg-indigo-200 text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100',
  'bg-violet-200 text-violet-900 dark:bg-violet-900 dark:text-violet-100',
  'bg-fuchsia-200 text-fuchsia-900 dark:bg-fuchsia-900 dark:text-fuchsia-100',
  'bg-pink-200 text-pink-900 dark:bg-pink-900 dark:text-pink-100',
] as const;
/* eslint-enable lingui/no-unlocalized-strings */

/** Index in AVATAR_COLORS: the sum of the name's UTF-16 code units, modulo 12. */
export function avatarColorIndex(name: string): number {
  let sum = 0;
  for (let i = 0; i < name.length; i += 1) sum += name.charCodeAt(i);
  return sum % AVATAR_COLORS.length;
}

export function avatarColor(name: string): string {
  return AVATAR_COLORS[avatarColorIndex(name)] ?? AVATAR_COLORS[0];
}

/** Up to two letters: the first of the first and last words ("Amina Benali" → "AB"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string) => Array.from(word)[0] ?? '';
  return (letter(first) + (last ? letter(last) : '')).toLocaleUpperCase();
}
