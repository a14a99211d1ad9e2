/* eslint-disable lingui/no-unlocalized-strings -- iCalendar keywords (RFC 5545), not copy */
/**
 * "Add to calendar": an iCalendar file (RFC 5545) with two events, the pickup and the return,
 * each with its place and the booking reference. Times are written in UTC (…Z), which every
 * calendar shows in its own zone — no VTIMEZONE needed and no daylight-saving surprise.
 */
export type CalendarEvent = {
  uid: string;
  start: string;
  /** Minutes; the event is a one-hour slot by default. */
  durationMinutes?: number;
  summary: string;
  location: string;
  description: string;
};

function utc(iso: string | number): string {
  return new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Escapes TEXT values (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    const limit = parts.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function buildIcs(events: CalendarEvent[], now: Date = new Date()): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Kiraa//Booking//FR',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  for (const e of events) {
    const start = Date.parse(e.start);
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${utc(now.getTime())}`,
      `DTSTART:${utc(start)}`,
      `DTEND:${utc(start + (e.durationMinutes ?? 60) * 60_000)}`,
      `SUMMARY:${escapeText(e.summary)}`,
      `LOCATION:${escapeText(e.location)}`,
      `DESCRIPTION:${escapeText(e.description)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
