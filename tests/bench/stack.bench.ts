/**
 * The local stack, on PGlite and on PostgreSQL (when its server binaries are installed):
 * - start → ready on a fresh data directory (migrations + seed) and again on the same data
 *   (goals ≤ 20 s and ≤ 5 s), each in a new Node process (boot included), as `npm start` runs;
 * - a simple PostgREST read through the gateway: requests per second and latency percentiles,
 *   from a separate process (8 concurrent keep-alive connections, 1 s warm-up, 5 s measured).
 *
 * `npx tsx tests/bench/stack.bench.ts`, or through `npm run bench` (default export).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { postgresUnavailableReason, startPostgres } from '../support/postgres.ts';
import { startTestStack, type TestDbEngine } from '../support/stack.ts';

export const GOALS = { firstStartMs: 20_000, secondStartMs: 5_000 } as const;

const READ_PATH = '/rest/v1/cars?select=id,slug,name,daily_rate_dzd&active=eq.true&limit=20';

export type StackBenchResult = {
  engine: TestDbEngine;
  firstStartMs: number;
  secondStartMs: number;
  /** CPU time of the starting Node process (user + system): what the start costs on an idle machine. */
  firstStartCpuMs: number;
  secondStartCpuMs: number;
  /** The machine's 1-minute load average when the numbers were taken, and its CPU count. */
  load: number;
  cpus: number;
  /** PostgreSQL only: initdb + pg_ctl start, not part of the stack's start. */
  clusterMs?: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  errors: number;
};

/** The load generator, in its own process so it does not share the gateway's event loop. */
const LOAD_SCRIPT = `
import http from 'node:http';
const [url, apikey, concurrency, warmupMs, durationMs] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const latencies = [];
let errors = 0;
let measuring = false;
let stop = false;
function once() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { agent, headers: { apikey } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (measuring) {
          if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          else errors++;
        }
        resolve();
      });
    });
    req.on('error', () => { if (measuring) errors++; resolve(); });
  });
}
async function worker() { while (!stop) await once(); }
const workers = Array.from({ length: Number(concurrency) }, worker);
await new Promise((r) => setTimeout(r, Number(warmupMs)));
measuring = true;
const t0 = Date.now();
await new Promise((r) => setTimeout(r, Number(durationMs)));
measuring = false;
const elapsed = (Date.now() - t0) / 1000;
stop = true;
await Promise.all(workers);
latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
console.log(JSON.stringify({ rps: latencies.length / elapsed, p50: q(0.5), p95: q(0.95), p99: q(0.99), errors }));
agent.destroy();
`;

async function load(
  url: string,
  apikey: string,
): Promise<{ rps: number; p50: number; p95: number; p99: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', LOAD_SCRIPT, url, apikey, '8', '1000', '5000'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'));
    });
  });
}

/**
 * Milliseconds from spawning a Node process to its stack being ready (Node and tsx boot
 * included), then the process stops the stack and exits.
 */
async function startInNewProcess(
  engine: TestDbEngine,
  dataDir: string,
  databaseUrl?: string,
): Promise<{ wallMs: number; cpuMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        START_ONCE,
        engine,
        dataDir,
        databaseUrl ?? '',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let readyMs = 0;
    let cpuMs = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      const ready = /READY (\{.*\})/.exec(chunk.toString());
      if (!readyMs && ready) {
        readyMs = Date.now() - started;
        cpuMs = (JSON.parse(ready[1]!) as { cpuMs: number }).cpuMs;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && readyMs) resolve({ wallMs: readyMs, cpuMs });
      else reject(new Error(`the stack did not start (exit code ${code})`));
    });
  });
}

const START_ONCE = '--start-once';

async function benchEngine(engine: TestDbEngine): Promise<StackBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kiraa-bench-'));
  const clusterStarted = Date.now();
  const cluster = engine === 'postgres' ? await startPostgres() : null;
  const clusterMs = cluster ? Date.now() - clusterStarted : undefined;
  try {
    // Each start in a new process, as `npm start` runs: Node and PGlite's WebAssembly start cold.
    const first = await startInNewProcess(engine, dir, cluster?.url);
    const second = await startInNewProcess(engine, dir, cluster?.url);

    const stack = await startTestStack({ db: engine, dataDir: dir, databaseUrl: cluster?.url });
    try {
      const probe = await fetch(`${stack.apiUrl}${READ_PATH}`, {
        headers: { apikey: stack.anonKey },
      });
      if (probe.status !== 200)
        throw new Error(`the read answered ${probe.status}: ${await probe.text()}`);
      const measured = await load(
        `${stack.apiUrl.replace('localhost', '127.0.0.1')}${READ_PATH}`,
        stack.anonKey,
      );
      return {
        engine,
        firstStartMs: first.wallMs,
        secondStartMs: second.wallMs,
        firstStartCpuMs: first.cpuMs,
        secondStartCpuMs: second.cpuMs,
        load: Number(loadavg()[0]!.toFixed(1)),
        cpus: cpus().length,
        ...(clusterMs === undefined ? {} : { clusterMs }),
        rps: Math.round(measured.rps),
        p50Ms: Number(measured.p50.toFixed(1)),
        p95Ms: Number(measured.p95.toFixed(1)),
        p99Ms: Number(measured.p99.toFixed(1)),
        errors: measured.errors,
      };
    } finally {
      await stack.stop();
    }
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mark = (ok: boolean) => (ok ? '✓' : '✗');

export default async function stackBench(): Promise<{
  results: StackBenchResult[];
  summary: string[];
}> {
  const results: StackBenchResult[] = [];
  const summary: string[] = [];
  const pgUnavailable = postgresUnavailableReason();
  for (const engine of ['pglite', 'postgres'] as const) {
    const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
    if (engine === 'postgres' && pgUnavailable) {
      summary.push(`${label}: not measured (${pgUnavailable})`);
      continue;
    }
    console.info(`stack on ${label}…`);
    const r = await benchEngine(engine);
    results.push(r);
    const lines = [
      `${label}: start → ready, fresh data  ${seconds(r.firstStartMs)} (goal ≤ ${seconds(GOALS.firstStartMs)}) ${mark(r.firstStartMs <= GOALS.firstStartMs)}, CPU ${seconds(r.firstStartCpuMs)}`,
      `${label}: start → ready, again       ${seconds(r.secondStartMs)} (goal ≤ ${seconds(GOALS.secondStartMs)}) ${mark(r.secondStartMs <= GOALS.secondStartMs)}, CPU ${seconds(r.secondStartCpuMs)}`,
      `${label}: REST read via the gateway  ${r.rps} req/s, p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, p99 ${r.p99Ms} ms, ${r.errors} errors`,
    ];
    lines.push(`${label}: (machine load ${r.load} on ${r.cpus} CPUs while measuring)`);
    if (r.clusterMs !== undefined)
      lines.push(`${label}: (cluster initdb + start, not counted: ${seconds(r.clusterMs)})`);
    for (const line of lines) console.info(`  ${line}`);
    summary.push(...lines);
  }
  return { results, summary };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === START_ONCE) {
    const [engine, dataDir, databaseUrl] = process.argv.slice(3) as [TestDbEngine, string, string];
    const stack = await startTestStack({
      db: engine,
      dataDir,
      databaseUrl: databaseUrl || undefined,
    });
    const cpu = process.cpuUsage();
    console.info(`READY ${JSON.stringify({ cpuMs: Math.round((cpu.user + cpu.system) / 1000) })}`);
    await stack.stop();
    process.exit(0);
  }
  const { summary } = await stackBench();
  console.info(summary.join('\n'));
}
