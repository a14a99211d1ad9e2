/**
 * `npm run test:e2e:load`: the e2e suite `KIRAA_E2E_LOAD_RUNS` times (5), one run after another,
 * with another npm script running over and over beside it, `KIRAA_E2E_LOAD_BESIDE` (`test:api:pg`:
 * PostgreSQL, PostgREST and Vitest's workers keep both cores busy). Arguments go to Playwright
 * (`npm run test:e2e:load -- tests/e2e/auth.spec.ts`: one spec under load).
 * Prints each run's result, time and the machine's load, and fails unless every run passed.
 *
 * Why: the gate must not depend on a quiet machine (docs/local-stack.md). A CI machine shared with
 * other jobs makes every step slower; a test that only passes on a quiet machine fails there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.env.KIRAA_E2E_LOAD_RUNS ?? 5);
const beside = process.env.KIRAA_E2E_LOAD_BESIDE ?? 'test:api:pg';
const playwrightArgs = process.argv.slice(2);
/** Each run's whole output (errors, steps, the path of a failure's screenshot and page snapshot). */
const logs = mkdtempSync(join(tmpdir(), 'kiraa-e2e-load-'));

/** Runs a command in its own process group (so its stacks and browsers can be stopped whole). */
function start(command: string, commandArgs: string[], quiet: boolean): ChildProcess {
  return spawn(command, commandArgs, {
    detached: true,
    env: { ...process.env, TZ: 'UTC' },
    stdio: quiet ? 'ignore' : ['ignore', 'pipe', 'pipe'],
  });
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

let stopping = false;
let besideChild: ChildProcess | null = null;
let e2eChild: ChildProcess | null = null;
let besideRuns = 0;
let besideFailures = 0;

function runBeside() {
  if (stopping) return;
  besideChild = start('npm', ['run', '--silent', beside], true);
  besideChild.on('close', (code) => {
    besideRuns += 1;
    if (code !== 0 && !stopping) besideFailures += 1;
    runBeside();
  });
}

/** Stops a child's whole process group: its own group is not the terminal's, so Ctrl-C misses it. */
function stopGroup(child: ChildProcess | null) {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

function stopBeside() {
  stopping = true;
  stopGroup(besideChild);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopBeside();
    stopGroup(e2eChild);
    process.exit(130);
  });
}

function e2eRun(run: number): Promise<{ code: number; summary: string; failed: string[] }> {
  return new Promise((resolve) => {
    const child = start('npx', ['playwright', 'test', ...playwrightArgs], false);
    e2eChild = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => {
      // eslint-disable-next-line no-control-regex
      const text = output.replace(/\u001b\[[0-9;]*m/g, '');
      writeFileSync(join(logs, `run-${run}.log`), text);
      const lines = text.split('\n');
      const summary = lines
        .filter((line) => /^\s+\d+ (passed|failed|flaky|skipped|did not run)/.test(line))
        .map((line) => line.trim())
        .join(', ');
      const failed = lines.filter((line) => /^\s+✘/.test(line)).map((line) => line.trim());
      resolve({ code: code ?? 1, summary, failed });
    });
  });
}

runBeside();
let passed = 0;
for (let run = 1; run <= runs; run += 1) {
  const started = Date.now();
  const result = await e2eRun(run);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (result.code === 0) passed += 1;
  console.info(
    `e2e run ${run}/${runs}: exit ${result.code} in ${minutes} min, load ${load()}: ${result.summary}`,
  );
  for (const line of result.failed) console.info(`  ${line}`);
  if (result.code !== 0) console.info(`  its output: ${join(logs, `run-${run}.log`)}`);
}
stopBeside();
console.info(
  `${passed} of ${runs} e2e runs passed; \`${beside}\` beside them: ${besideRuns} runs ended, ${besideFailures} failed`,
);
process.exit(passed === runs ? 0 : 1);
