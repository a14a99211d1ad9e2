/**
 * Supabase Edge Functions, served locally as the platform serves them: the real Deno (npm package
 * `deno`) runs `supabase/functions/<name>/index.ts` (`Deno.serve`), one process per function (an
 * isolate of its own, as on the platform), started on the first request (25–45 ms once Deno's
 * cache is warm, ~115 ms cold) and restarted on the next request after it exits. The gateway
 * hands it `/functions/v1/<name>/…` as `/<name>/…`, after checking the caller's JWT unless
 * `verify_jwt = false`. The environment is the platform's: SUPABASE_URL, SUPABASE_ANON_KEY,
 * SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL, plus the project's secrets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { holdChild } from '../children.ts';
import type { JwtClaims } from '../context.ts';
import { TooDeep, TooLarge, pipeCapped, refusalOf } from '../gateway/gateway-guards.ts';
import { verifyJwt, type JwtVerifier } from '../jwt.ts';
import type { FunctionConfig } from './config.ts';

/** The Deno binary of the npm package `deno` (its platform package; no install script needed). */
export function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const target =
    process.platform === 'linux'
      ? `linux-${process.arch}-glibc`
      : process.platform === 'win32'
        ? `win32-${process.arch}`
        : `${process.platform}-${process.arch}`;
  const file = process.platform === 'win32' ? 'deno.exe' : 'deno';
  let path: string;
  try {
    path = join(dirname(require.resolve(`@deno/${target}/package.json`)), file);
  } catch {
    throw new Error(
      `Deno is missing: the npm package @deno/${target} is not installed (run npm install on this machine).`,
    );
  }
  if (!existsSync(path)) throw new Error(`Deno binary not found at ${path}.`);
  return path;
}

/** Headers that describe one connection and are never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export type EdgeRuntimeOptions = {
  functions: FunctionConfig[];
  /** supabase/functions/deno.json: `nodeModulesDir: "manual"`, so npm: imports come from node_modules. */
  denoConfig: string;
  /** What the functions may read (the repository: their code, shared code, node_modules). */
  readRoot: string;
  /** DENO_DIR: Deno's cache of compiled modules. */
  cacheDir: string;
  /** The platform's variables and the project's secrets. */
  env: Record<string, string>;
  jwtSecret: string;
  /** The JWKS's keys besides the secret (ES256 access tokens); the secret alone when absent. */
  signingKeys?: JwtVerifier;
  log: (message: string) => void;
  /** How long a function may take to listen (default 20 s). */
  bootTimeoutMs?: number;
};

/** The platform's answers when a function cannot serve (as the edge runtime's main service). */
const ERRORS = {
  notFound: [404, { code: 'NOT_FOUND', message: 'Requested function was not found' }],
  boot: [503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' }],
  worker: [
    500,
    { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
  ],
} as const;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

class BootError extends Error {}

/** One function's Deno process. */
class Worker {
  private child: ChildProcess | null = null;
  private starting: Promise<number> | null = null;
  private port = 0;
  private stopped = false;

  constructor(
    readonly config: FunctionConfig,
    private readonly options: EdgeRuntimeOptions,
  ) {}

  /** The port of a running process, starting one if needed (one start at a time). */
  ensure(): Promise<number> {
    if (this.port) return Promise.resolve(this.port);
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  private start(): Promise<number> {
    if (this.stopped) return Promise.reject(new BootError('the stack is stopping'));
    const { config, options } = this;
    const child = spawn(
      denoBinary(),
      [
        'run',
        `--config=${options.denoConfig}`,
        // Nothing is fetched: npm: imports come from node_modules, anything else is refused.
        '--cached-only',
        '--no-prompt',
        '--allow-net',
        '--allow-env',
        `--allow-read=${options.readRoot}`,
        // The platform's memory limit per function.
        '--v8-flags=--max-old-space-size=256',
        config.entrypoint,
      ],
      {
        cwd: options.readRoot,
        env: {
          ...options.env,
          DENO_DIR: options.cacheDir,
          DENO_NO_UPDATE_CHECK: '1',
          NO_COLOR: '1',
          // Whatever address the function asks Deno.serve for, it listens on a free local port.
          DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    this.child = child;
    holdChild(child);
    const tail: string[] = [];

    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new BootError(`did not listen within ${options.bootTimeoutMs ?? 20_000} ms`));
      }, options.bootTimeoutMs ?? 20_000);
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      const onLine = (line: string) => {
        const listening = /^Listening on https?:\/\/[^\s]*:(\d+)\/?$/.exec(line.trim());
        if (listening && !settled) {
          settled = true;
          clearTimeout(timer);
          this.port = Number(listening[1]);
          resolve(this.port);
          return;
        }
        tail.push(line);
        if (tail.length > 20) tail.shift();
        options.log(`functions/${config.name}: ${line}`);
      };
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream?.on('data', (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) if (line.trim()) onLine(line);
        });
      }
      child.once('error', (error) => fail(new BootError(error.message)));
      child.once('exit', (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.port = 0;
        }
        const reason = signal ? `signal ${signal}` : `code ${code}`;
        if (!settled) fail(new BootError(`exited (${reason}) before it listened`));
        else if (!this.stopped) options.log(`functions/${config.name}: exited (${reason})`);
      });
    }).catch((error: Error) => {
      options.log(
        `functions/${config.name}: failed to boot: ${error.message}${tail.length ? `\n${tail.join('\n')}` : ''}`,
      );
      throw error instanceof BootError ? error : new BootError(error.message);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => {});
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

/** The bearer token the platform checks: Authorization, else a JWT given as `apikey` (Kong). */
function bearerToken(req: IncomingMessage): string | null {
  const authorization = req.headers.authorization;
  if (authorization) {
    const [scheme, token] = authorization.split(' ');
    return scheme === 'Bearer' && token ? token : null;
  }
  const apikey = req.headers.apikey;
  return typeof apikey === 'string' && apikey ? apikey : null;
}

export type EdgeRuntime = {
  /** The served functions' names. */
  readonly names: string[];
  /**
   * Serves `/functions/v1/<rest>`: `rest` is `/<name>/…`. `clientAddress` becomes X-Forwarded-For.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    url: URL,
    clientAddress: string,
  ): Promise<void>;
  /** Starts these functions now (default: all) instead of on their first request. */
  warm(names?: string[]): Promise<void>;
  stop(): Promise<void>;
};

export function createEdgeRuntime(options: EdgeRuntimeOptions): EdgeRuntime {
  const workers = new Map(
    options.functions.map((config) => [config.name, new Worker(config, options)]),
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    url: URL,
    clientAddress: string,
  ): Promise<void> {
    const name = /^\/([^/]+)/.exec(rest)?.[1] ?? '';
    const worker = workers.get(name);
    if (!worker) return sendJson(res, ...ERRORS.notFound);

    if (worker.config.verifyJwt && req.method !== 'OPTIONS') {
      const token = bearerToken(req);
      if (!token) return sendJson(res, 401, { code: 401, message: 'Missing authorization header' });
      try {
        verifyJwt<JwtClaims>(token, options.signingKeys ?? options.jwtSecret);
      } catch {
        return sendJson(res, 401, { code: 401, message: 'Invalid JWT' });
      }
      if (!req.headers.authorization) req.headers.authorization = `Bearer ${token}`;
    }

    let port: number;
    try {
      port = await worker.ensure();
    } catch {
      return sendJson(res, ...ERRORS.boot);
    }

    const headers: IncomingHttpHeaders = {};
    for (const [header, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(header)) headers[header] = value;
    }
    headers['x-forwarded-for'] = clientAddress;
    headers['x-forwarded-proto'] = 'http';
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: `${rest}${url.search}`,
        headers,
        agent,
      },
      (answer) => {
        const out: OutgoingHttpHeaders = {};
        for (const [header, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(header) && value !== undefined) out[header] = value;
        }
        if (res.headersSent) return void answer.resume();
        res.writeHead(answer.statusCode ?? 500, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error) => {
      if (res.destroyed || error instanceof TooLarge || error instanceof TooDeep) return;
      options.log(`functions/${name}: request failed: ${error.message}`);
      sendJson(res, ...ERRORS.worker);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    pipeCapped(req, upstream, (error) => {
      const refusal = refusalOf(error);
      sendJson(res, refusal.status, refusal.body);
    });
  }

  return {
    names: [...workers.keys()],
    handle,
    async warm(names = [...workers.keys()]) {
      await Promise.all(
        names.map((name) =>
          workers
            .get(name)
            ?.ensure()
            .catch(() => {}),
        ),
      );
    },
    async stop() {
      agent.destroy();
      await Promise.all([...workers.values()].map((worker) => worker.stop()));
    },
  };
}
