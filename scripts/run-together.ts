/**
 * `tsx scripts/run-together.ts <npm script>…` (part of `npm test`): runs npm scripts at the same
 * time, prints each one's output whole when it ends (so two test reports never interleave), and
 * fails when any of them fails.
 *
 * Why: the API files on PostgreSQL, PGlite's own on PGlite and the contract (`test:server`) each
 * run one file after another against a stack of their own, which leaves a core idle much of the
 * time: side by side they take less time on a 2-core machine than one after another
 * (docs/local-stack.md, "Tests and benchmarks"). Each stack starts on free ports with its own data
 * directory.
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('Usage: tsx scripts/run-together.ts <npm script>…');
  process.exit(2);
}

type Outcome = { name: string; code: number; seconds: number; output: string };

const children = new Set<ReturnType<typeof spawn>>();

function run(name: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], {
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = (Date.now() - started) / 1000;
      const status = code ?? (signal ? 1 : 0);
      console.info(`${name} ended (exit ${status}, ${seconds.toFixed(0)} s)`);
      resolve({ name, code: status, seconds, output: Buffer.concat(output).toString('utf8') });
    });
  });
}

/** The lines of a failed run worth reading first: vitest's and Playwright's failure headings and the error after each. */
function failureLines(output: string, limit = 40): string[] {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const picked: string[] = [];
  lines.forEach((line, index) => {
    if (!/^\s*(FAIL\b|×|✘|\d+\) )|Error:|AssertionError/.test(line)) return;
    picked.push(line.trimEnd());
    const next = lines[index + 1]?.trim();
    if (next && /^(FAIL|×)/.test(line.trim()) && !/Error/.test(next)) picked.push(`    ${next}`);
  });
  return [...new Set(picked)].slice(0, limit);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

const outcomes = await Promise.all(names.map(run));
// Failed runs print last, so the end of the log (what a CI summary keeps) is the failure.
const ordered = [...outcomes].sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0));
for (const outcome of ordered) {
  process.stdout.write(
    `\n── npm run ${outcome.name} (${outcome.seconds.toFixed(0)} s, exit ${outcome.code}) ──\n`,
  );
  process.stdout.write(outcome.output);
}
const failed = outcomes.filter((outcome) => outcome.code !== 0);
for (const outcome of failed) {
  console.info(
    `\n── what failed in ${outcome.name} ──\n${failureLines(outcome.output).join('\n')}`,
  );
}
console.info(
  `\n${outcomes.map((o) => `${o.name} ${o.code === 0 ? 'passed' : 'FAILED'} in ${o.seconds.toFixed(0)} s`).join(', ')}`,
);
process.exitCode = failed.length ? 1 : 0;
