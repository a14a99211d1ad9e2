import { describe, expect, it } from 'vitest';

import { buildIcs, escapeText, foldLine } from '@/features/booking/calendar';

describe('buildIcs', () => {
  const ics = buildIcs(
    [
      {
        uid: 'b1-pickup@kiraa',
        start: '2030-03-12T10:00:00+01:00',
        summary: 'Kiraa: pickup, Dacia Logan (KR-7K3M-9QXD)',
        location: 'Alger, aéroport Houari-Boumédiène (ALG)',
        description: 'Référence KR-7K3M-9QXD\nCaution; pièce d’identité',
      },
      {
        uid: 'b1-return@kiraa',
        start: '2030-03-15T18:30:00+01:00',
        summary: 'Kiraa: return',
        location: 'Oran',
        description: 'KR-7K3M-9QXD',
      },
    ],
    new Date('2030-01-01T00:00:00Z'),
  );

  it('writes two events in UTC, with CRLF line ends', () => {
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    // 10:00 in Algiers (UTC+1) is 09:00 UTC, whatever the device's zone.
    expect(ics).toContain('DTSTART:20300312T090000Z\r\nDTEND:20300312T100000Z');
    expect(ics).toContain('DTSTART:20300315T173000Z');
    expect(ics).toContain('DTSTAMP:20300101T000000Z');
    expect(ics.replace(/\r\n /g, '')).toContain(
      'LOCATION:Alger\\, aéroport Houari-Boumédiène (ALG)',
    );
    expect(ics.replace(/\r\n /g, '')).toContain(
      'DESCRIPTION:Référence KR-7K3M-9QXD\\nCaution\\; pièce d’identité',
    );
    expect(ics.split('\r\n').every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
  });
});

describe('escapeText and foldLine', () => {
  it('escapes backslashes, semicolons, commas and newlines', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const line = `SUMMARY:${'é'.repeat(60)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(parts.every((p) => new TextEncoder().encode(p).length <= 75)).toBe(true);
  });
});
