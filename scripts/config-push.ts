/**
 * `npm run config:push -- --plan free|pro|team --ref <project ref>`: `supabase config push` of
 * supabase/config.toml to a hosted project, through the `[remotes.<plan>]` block that carries
 * production's values for that plan (docs/deployment.md, "Settings").
 *
 * The CLI merges the block whose `project_id` is the pushed ref; a ref in no block gets the
 * top-level (local) values, CAPTCHA and the Send Email hook off. So this names the block's ref with
 * SUPABASE_REMOTES_<PLAN>_PROJECT_ID (the CLI reads `remotes.<plan>.project_id` from it), and
 * refuses to run while a variable the block reads is unset.
 *
 * `scripts/supabase-check.ts` runs the same function against a stand-in Management API
 * (tests/support/management-api.ts) and asserts what each plan's project receives.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from 'smol-toml';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI = join(ROOT, 'node_modules/supabase/dist/supabase.js');
const CONFIG = join(ROOT, 'supabase/config.toml');

export const PLANS = ['free', 'pro', 'team'] as const;
export type PushPlan = (typeof PLANS)[number];

/** The variables a remote block reads with env(NAME). */
export function remoteEnvNames(plan: PushPlan, text = readFileSync(CONFIG, 'utf8')): string[] {
  const remotes = (parse(text) as { remotes?: Record<string, unknown> }).remotes ?? {};
  const block = remotes[plan];
  if (!block) throw new Error(`supabase/config.toml has no [remotes.${plan}] block.`);
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      const match = /^env\(([A-Z_][A-Z0-9_]*)\)$/.exec(value);
      if (match) names.add(match[1]!);
    } else if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  walk(block);
  return [...names].sort();
}

export type PushResult = { status: number; stdout: string; stderr: string };

export type PushOptions = {
  plan: PushPlan;
  ref: string;
  env: NodeJS.ProcessEnv;
  /** A Management API stand-in (tests); else the CLI's default, api.supabase.com. */
  apiUrl?: string;
  /** Answer yes to the CLI's questions (tests; a person pushing reads the diff). */
  yes?: boolean;
};

export async function configPush(options: PushOptions): Promise<PushResult> {
  if (!(PLANS as readonly string[]).includes(options.plan)) {
    throw new Error(`--plan must be one of ${PLANS.join(', ')}, got "${options.plan}".`);
  }
  if (!/^[a-z]{20}$/.test(options.ref)) {
    throw new Error(`--ref must be a project ref (20 lowercase letters), got "${options.ref}".`);
  }
  const missing = remoteEnvNames(options.plan).filter((name) => !options.env[name]);
  if (missing.length > 0) {
    throw new Error(`[remotes.${options.plan}] needs ${missing.join(', ')} in the environment.`);
  }
  const home = options.apiUrl ? mkdtempSync(join(tmpdir(), 'kiraa-cli-home-')) : null;
  try {
    const args = ['config', 'push', '--project-ref', options.ref, '--workdir', ROOT];
    if (options.yes) args.push('--yes');
    if (home && options.apiUrl) {
      // The CLI's `--profile <file>`: where the Management API is (docs: `supabase --profile`).
      const profile = join(home, 'profile.yaml');
      writeFileSync(
        profile,
        [
          'name: kiraa-stand-in',
          `api_url: ${options.apiUrl}`,
          `dashboard_url: ${options.apiUrl}/dashboard`,
          'project_host: supabase.test',
          '',
        ].join('\n'),
      );
      args.push('--profile', profile);
    }
    // Asynchronous: a stand-in Management API may run in this very process.
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: {
        ...options.env,
        ...(home ? { HOME: home } : {}),
        [`SUPABASE_REMOTES_${options.plan.toUpperCase()}_PROJECT_ID`]: options.ref,
        DO_NOT_TRACK: '1',
        SUPABASE_TELEMETRY_DISABLED: '1',
      },
      stdio: options.yes ? 'pipe' : 'inherit',
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGTERM'), 2 * 60_000);
    const status = await new Promise<number>((done, failed) => {
      child.on('error', failed);
      child.on('close', (code) => done(code ?? 1));
    }).finally(() => clearTimeout(timer));
    return { status, stdout, stderr };
  } finally {
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

function argument(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const argv = process.argv.slice(2);
    const result = await configPush({
      plan: (argument(argv, '--plan') ?? '') as PushPlan,
      ref: argument(argv, '--ref') ?? '',
      env: process.env,
    });
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exit(result.status);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
