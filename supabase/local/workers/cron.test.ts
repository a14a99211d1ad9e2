// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { firesAt, isDue, minutesBegun, parseSchedule } from './cron.ts';

const at = (iso: string) => new Date(iso);

describe('parseSchedule and firesAt (pg_cron’s syntax, in UTC)', () => {
  it('reads five cron fields with lists, ranges and steps', () => {
    const quarter = parseSchedule('*/15 8-18 * * 1-5');
    expect(firesAt(quarter, at('2026-11-25T08:45:00Z'))).toBe(true); // a Wednesday
    expect(firesAt(quarter, at('2026-11-25T08:50:00Z'))).toBe(false);
    expect(firesAt(quarter, at('2026-11-25T19:00:00Z'))).toBe(false);
    expect(firesAt(quarter, at('2026-11-29T09:00:00Z'))).toBe(false); // a Sunday
    const list = parseSchedule('0,30 3 1 1,7 *');
    expect(firesAt(list, at('2026-07-01T03:30:00Z'))).toBe(true);
    expect(firesAt(list, at('2026-08-01T03:30:00Z'))).toBe(false);
  });

  it('fires on either day field when both are restricted, as cron does', () => {
    const schedule = parseSchedule('0 0 13 * 5');
    expect(firesAt(schedule, at('2026-11-13T00:00:00Z'))).toBe(true); // the 13th (a Friday)
    expect(firesAt(schedule, at('2026-11-20T00:00:00Z'))).toBe(true); // a Friday
    expect(firesAt(schedule, at('2026-11-14T00:00:00Z'))).toBe(false);
    expect(firesAt(parseSchedule('0 0 * * 7'), at('2026-11-29T00:00:00Z'))).toBe(true); // 7 = Sunday
  });

  it('reads nicknames and pg_cron’s seconds', () => {
    expect(firesAt(parseSchedule('@hourly'), at('2026-11-25T10:00:00Z'))).toBe(true);
    expect(firesAt(parseSchedule('@daily'), at('2026-11-25T10:00:00Z'))).toBe(false);
    expect(parseSchedule('30 seconds')).toEqual({ kind: 'seconds', every: 30 });
    expect(parseSchedule('@reboot')).toEqual({ kind: 'reboot' });
  });

  it('refuses what pg_cron refuses', () => {
    for (const bad of ['* * * *', '60 * * * *', '* 24 * * *', '0 seconds', '90 seconds', 'often']) {
      expect(() => parseSchedule(bad), bad).toThrow(/invalid schedule/);
    }
  });
});

describe('isDue (what a tick of the worker runs)', () => {
  const ms = (iso: string) => Date.parse(iso);
  const minute = (iso: string) => Math.floor(ms(iso) / 60_000);

  it('runs an every-minute job once at each minute, from ticks a second apart', () => {
    const everyMinute = parseSchedule('* * * * *');
    let last = minute('2026-11-25T09:59:58Z');
    const fired: string[] = [];
    for (let t = ms('2026-11-25T09:59:59Z'); t <= ms('2026-11-25T10:02:30Z'); t += 1000) {
      const minutes = minutesBegun(last, t);
      last = Math.max(last, Math.floor(t / 60_000));
      if (isDue(everyMinute, { now: t, previousRun: 0, hasRun: true, minutes })) {
        fired.push(new Date(t).toISOString());
      }
    }
    expect(fired).toEqual([
      '2026-11-25T10:00:00.000Z',
      '2026-11-25T10:01:00.000Z',
      '2026-11-25T10:02:00.000Z',
    ]);
  });

  it('catches up on the minutes a slow tick skipped, once', () => {
    const begun = minutesBegun(minute('2026-11-25T10:00:10Z'), ms('2026-11-25T10:03:05Z'));
    expect(begun.map((date) => date.toISOString())).toEqual([
      '2026-11-25T10:01:00.000Z',
      '2026-11-25T10:02:00.000Z',
      '2026-11-25T10:03:00.000Z',
    ]);
    const at = { now: ms('2026-11-25T10:03:05Z'), previousRun: 0, hasRun: true, minutes: begun };
    expect(isDue(parseSchedule('2 10 * * *'), at)).toBe(true);
    expect(isDue(parseSchedule('5 10 * * *'), at)).toBe(false);
  });

  it('runs seconds after seconds, @reboot once', () => {
    const now = ms('2026-11-25T10:00:30Z');
    const tick = { now, previousRun: now - 29_000, hasRun: true, minutes: [] };
    expect(isDue(parseSchedule('30 seconds'), tick)).toBe(false);
    expect(isDue(parseSchedule('30 seconds'), { ...tick, previousRun: now - 30_000 })).toBe(true);
    expect(isDue(parseSchedule('@reboot'), { ...tick, hasRun: false })).toBe(true);
    expect(isDue(parseSchedule('@reboot'), tick)).toBe(false);
  });
});
