/**
 * `npm run bench [-- <name>…]`: runs every tests/bench/*.bench.ts (or those whose file name
 * contains one of the names), one after another, in file-name order, then prints a summary.
 *
 * A benchmark file's default export is an async function; it prints its own details and may
 * return `{ summary: string[] }` (lines for the summary). Benchmarks measure, they do not
 * assert: the run fails only when a benchmark throws.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type BenchModule = { default?: () => Promise<unknown> };

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((name) => file.includes(name)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${filters.join(', ')} in tests/bench.`);
  process.exit(1);
}

const results: Array<{ file: string; ok: boolean; seconds: number; lines: string[] }> = [];
for (const file of files) {
  console.info(`\n▶ ${file}`);
  const started = Date.now();
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as BenchModule;
    if (typeof mod.default !== 'function') throw new Error('no default export to run');
    const result = await mod.default();
    const summary = (result as { summary?: unknown } | null)?.summary;
    results.push({
      file,
      ok: true,
      seconds: (Date.now() - started) / 1000,
      lines: Array.isArray(summary) ? summary.map(String) : [],
    });
  } catch (error) {
    console.error(error);
    results.push({
      file,
      ok: false,
      seconds: (Date.now() - started) / 1000,
      lines: [`failed: ${(error as Error).message}`],
    });
  }
}

console.info('\n════ Benchmark summary ════');
for (const result of results) {
  console.info(`${result.ok ? '✓' : '✗'} ${result.file} (${result.seconds.toFixed(1)} s)`);
  for (const line of result.lines) console.info(`    ${line}`);
}
// Benchmarks leave nothing running; exit explicitly in case a library keeps a handle open.
process.exit(results.every((result) => result.ok) ? 0 : 1);
