/**
 * pg_cron's background worker, for the stand-in of supabase/local/postgres/extensions.sql: runs the
 * commands of `cron.job` when their schedule says so (in UTC, as pg_cron does by default), as
 * the user who scheduled them, one run of a job at a time, and records each run in
 * `cron.job_run_details`. Hosted Supabase runs the same `cron.schedule` declarations with the
 * real pg_cron.
 */
import type { Db } from '../context.ts';

export type Schedule =
  | { kind: 'seconds'; every: number }
  | { kind: 'cron'; fields: Array<Set<number>>; anyDay: [boolean, boolean] }
  | { kind: 'reboot' };

const RANGES: Array<[number, number]> = [
  [0, 59], // minute
  [0, 23], // hour
  [1, 31], // day of month
  [1, 12], // month
  [0, 7], // day of week (0 and 7: Sunday)
];

const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function parseField(text: string, [min, max]: [number, number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`invalid schedule field: ${text}`);
    const from = match[1] === '*' ? min : Number(match[2]);
    const to = match[1] === '*' ? max : match[3] !== undefined ? Number(match[3]) : from;
    const step = match[4] !== undefined ? Number(match[4]) : 1;
    const end = match[4] !== undefined && match[3] === undefined && match[1] !== '*' ? max : to;
    if (from < min || end > max || from > end || step < 1) {
      throw new Error(`invalid schedule field: ${text}`);
    }
    for (let value = from; value <= end; value += step) values.add(value);
  }
  return values;
}

/** pg_cron's schedule syntax: five cron fields, `N seconds` (1–59), `@daily`…, `@reboot`. */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim().toLowerCase();
  const seconds = /^(\d+)\s+seconds?$/.exec(trimmed);
  if (seconds) {
    const every = Number(seconds[1]);
    if (every < 1 || every > 59) throw new Error(`invalid schedule: ${text}`);
    return { kind: 'seconds', every };
  }
  if (trimmed === '@reboot') return { kind: 'reboot' };
  const fields = (NICKNAMES[trimmed] ?? trimmed).split(/\s+/);
  if (fields.length !== 5) throw new Error(`invalid schedule: ${text}`);
  const parsed = fields.map((field, i) => parseField(field, RANGES[i]!));
  if (parsed[4]!.has(7)) parsed[4]!.add(0);
  return { kind: 'cron', fields: parsed, anyDay: [fields[2] === '*', fields[4] === '*'] };
}

/** Whether a cron schedule fires in the minute of `date` (UTC). */
export function firesAt(schedule: Schedule, date: Date): boolean {
  if (schedule.kind !== 'cron') return false;
  const [minutes, hours, days, months, weekdays] = schedule.fields as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (!minutes.has(date.getUTCMinutes()) || !hours.has(date.getUTCHours())) return false;
  if (!months.has(date.getUTCMonth() + 1)) return false;
  const day = days.has(date.getUTCDate());
  const weekday = weekdays.has(date.getUTCDay());
  // As in cron: when both day fields are restricted, either one matching is enough.
  const [anyDay, anyWeekday] = schedule.anyDay;
  if (anyDay && anyWeekday) return true;
  if (anyDay) return weekday;
  if (anyWeekday) return day;
  return day || weekday;
}

/** The minutes that began after `lastMinute` (minutes since the epoch) up to `now` (ms). */
export function minutesBegun(lastMinute: number, now: number): Date[] {
  const begun: Date[] = [];
  for (let m = lastMinute + 1; m <= Math.floor(now / 60_000); m++) begun.push(new Date(m * 60_000));
  return begun;
}

/**
 * Whether a job is due at a tick: `N seconds` once that long has passed since its last run (or
 * the worker's start), `@reboot` once, a cron schedule when one of the minutes begun since the
 * last tick is one it fires at.
 */
export function isDue(
  schedule: Schedule,
  tick: { now: number; previousRun: number; hasRun: boolean; minutes: Date[] },
): boolean {
  if (schedule.kind === 'seconds') return tick.now - tick.previousRun >= schedule.every * 1000;
  if (schedule.kind === 'reboot') return !tick.hasRun;
  return tick.minutes.some((date) => firesAt(schedule, date));
}

type Job = {
  jobid: string;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
};

export type CronWorker = {
  /** Runs one job now, by name, as the worker would (tests, and `npm start`'s first sweep). */
  run(jobname: string): Promise<void>;
  stop(): Promise<void>;
};

/** Checks `cron.job` every second and runs what is due. Waits quietly while it does not exist. */
export function startCron(db: Db, log: (message: string) => void, tickMs = 1000): CronWorker {
  const running = new Map<string, Promise<void>>();
  const lastRun = new Map<string, number>();
  const started = Date.now();
  let lastMinute = Math.floor(started / 60_000);
  let stopped = false;
  let lastError = '';

  async function execute(job: Job): Promise<void> {
    const { rows } = await db.query<{ runid: string }>(
      `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
       values ($1, current_database(), $2, $3, 'running', now()) returning runid`,
      [job.jobid, job.username, job.command],
    );
    const runid = rows[0]!.runid;
    let status = 'succeeded';
    let message = '';
    try {
      await db.tx(async (q) => {
        await q.query("select set_config('role', $1, true)", [job.username]);
        await q.query(job.command);
      });
    } catch (error) {
      status = 'failed';
      message = (error as Error).message;
      log(`cron: job ${job.jobname ?? job.jobid} failed: ${message}`);
    }
    await db.query(
      `update cron.job_run_details set status = $2, return_message = $3, end_time = now()
        where runid = $1`,
      [runid, status, message || '1 row'],
    );
  }

  function launch(job: Job): Promise<void> {
    const current = running.get(job.jobid);
    if (current) return current;
    lastRun.set(job.jobid, Date.now());
    const run = execute(job)
      .catch((error: Error) => log(`cron: ${error.message}`))
      .finally(() => running.delete(job.jobid));
    running.set(job.jobid, run);
    return run;
  }

  async function jobs(): Promise<Job[]> {
    const exists = await db.query<{ present: boolean }>(
      "select to_regclass('cron.job') is not null as present",
    );
    if (!exists.rows[0]?.present) return [];
    const { rows } = await db.query<Job>(
      'select jobid::text, jobname, schedule, command, username from cron.job where active',
    );
    return rows;
  }

  async function tick(): Promise<void> {
    const now = Date.now();
    const minutes = minutesBegun(lastMinute, now);
    lastMinute = Math.max(lastMinute, Math.floor(now / 60_000));
    for (const job of await jobs()) {
      let schedule: Schedule;
      try {
        schedule = parseSchedule(job.schedule);
      } catch {
        continue;
      }
      const previousRun = lastRun.get(job.jobid) ?? started;
      if (isDue(schedule, { now, previousRun, hasRun: lastRun.has(job.jobid), minutes })) {
        void launch(job);
      }
    }
  }

  const timer = setInterval(() => {
    if (stopped) return;
    tick().then(
      () => (lastError = ''),
      (error: Error) => {
        if (error.message !== lastError) log(`cron: ${error.message}`);
        lastError = error.message;
      },
    );
  }, tickMs);
  timer.unref();

  return {
    async run(jobname) {
      const job = (await jobs()).find((candidate) => candidate.jobname === jobname);
      if (!job) throw new Error(`cron: no job named ${jobname}`);
      await launch(job);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
