/**
 * Shared by the shell's benchmarks: the built app served against the local stack (the e2e
 * global setup), started once per benchmark file, and a small table printer.
 */
import { pathToFileURL } from 'node:url';

import { readE2eEnv, type E2eEnv } from '../e2e/support/env.ts';
import globalSetup from '../e2e/support/global-setup.ts';
import { postgresUnavailableReason } from '../support/postgres.ts';

/** Runs `fn` with the app built and served against a fresh local stack. */
export async function withBuiltApp<T>(fn: (env: E2eEnv) => Promise<T>): Promise<T> {
  const teardown = await globalSetup();
  try {
    return await fn(readE2eEnv());
  } finally {
    await teardown();
  }
}

/**
 * withBuiltApp on PostgreSQL when this machine has it and KIRAA_TEST_DB does not choose, for the
 * page benchmarks: PGlite answers one request at a time, so a first visit's six catalogue
 * requests would wait for one another, a wait the benchmarks would count as the app's
 * (docs/performance.md).
 */
export async function withProductionApp<T>(fn: (env: E2eEnv) => Promise<T>): Promise<T> {
  if (process.env.KIRAA_TEST_DB || postgresUnavailableReason()) return withBuiltApp(fn);
  process.env.KIRAA_TEST_DB = 'postgres';
  try {
    return await withBuiltApp(fn);
  } finally {
    delete process.env.KIRAA_TEST_DB;
  }
}

export type Stats = { median: number; p95: number; min: number; max: number; n: number };

/** Median, 95th percentile (nearest rank), min and max of a set of samples. */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return {
    median: at(0.5),
    p95: at(0.95),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    n: sorted.length,
  };
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  if (!rows.length) return;
  const headers = Object.keys(rows[0]!);
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.info(line(headers));
  console.info(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.info(line(headers.map((h) => String(row[h]))));
}

/** True when the module at `url` is the script node was started with (not imported). */
export function isMain(url: string): boolean {
  return !!process.argv[1] && url === pathToFileURL(process.argv[1]).href;
}
