import type { Locale } from '@/domain/locale';

/** Kiraa's time zone: Africa/Algiers is UTC+1 all year (no daylight saving time). */
export const TIME_ZONE = 'Africa/Algiers';
const OFFSET = '+01:00';
const OFFSET_MS = 60 * 60 * 1000;

const dateLocales: Record<Locale, string> = { fr: 'fr-DZ', en: 'en-GB', ar: 'ar-DZ-u-nu-latn' };

/**
 * The instant of a wall-clock date and time in Algiers, as ISO 8601 with its offset,
 * whatever the device's own time zone. `date` is YYYY-MM-DD, `time` is HH:mm.
 * Returns null when either is missing or not a real date/time.
 */
export function algiersToIso(date: string, time: string): string | null {
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const tm = /^(\d{2}):(\d{2})$/.exec(time);
  if (!dm || !tm) return null;
  const [y, mo, d] = [Number(dm[1]), Number(dm[2]), Number(dm[3])];
  const [h, mi] = [Number(tm[1]), Number(tm[2])];
  if (h > 23 || mi > 59) return null;
  const utc = new Date(Date.UTC(y, mo - 1, d, h, mi) - OFFSET_MS);
  const back = new Date(utc.getTime() + OFFSET_MS);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    return null;
  }
  return `${date}T${time}:00${OFFSET}`;
}

/** The Algiers wall-clock date (YYYY-MM-DD) and time (HH:mm) of an instant. */
export function isoToAlgiers(iso: string | Date): { date: string; time: string } {
  const shifted = new Date(new Date(iso).getTime() + OFFSET_MS).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 16) };
}

/** Today's date in Algiers (YYYY-MM-DD). */
export function algiersToday(now: Date = new Date()): string {
  return isoToAlgiers(now).date;
}

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(dateLocales[locale], {
      ...options,
      ...(options.timeStyle ? { hourCycle: 'h23' as const } : {}),
      timeZone: TIME_ZONE,
    });
    cache.set(key, f);
  }
  return f;
}

/** A date and time shown in Algiers time, e.g. "12 mars 2027 à 10:00". */
export function formatDateTime(iso: string | Date, locale: Locale): string {
  return formatter(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A date shown in Algiers time, e.g. "12 mars 2027". */
export function formatDate(iso: string | Date, locale: Locale): string {
  return formatter(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

/** Whole 24-hour periods between two instants, rounded up, at least 1 (docs/decisions.md). */
export function rentalDays(startIso: string, endIso: string): number {
  const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
  return Math.max(1, Math.ceil(ms / (24 * 60 * 60 * 1000)));
}
