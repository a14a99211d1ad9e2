/**
 * The app build of `npm start`: `vite build` with the API's URL and anon key, skipped when none of
 * its inputs changed since the last build, and refused when the service-role key ended up in it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { ROOT_DIR } from './config.ts';

/** What the build reads (besides node_modules, covered by the lock file). */
export const BUILD_INPUTS = [
  'src',
  'public',
  // The build's own steps (vite.config.ts imports them: the first screens, the route preloads).
  'scripts',
  'index.html',
  'vite.config.ts',
  'lingui.config.ts',
  'tsconfig.json',
  'package-lock.json',
];

/** A build that failed or must not be served: its message says why, no stack trace needed. */
export class BuildError extends Error {
  override name = 'BuildError';
}

/** Changes when any input file (path, size, mtime) or a build variable changes. */
export function buildFingerprint(root: string, env: Record<string, string>): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else {
      hash.update(`${relative(root, path)}:${stats.size}:${stats.mtimeMs}\n`);
    }
  };
  for (const input of BUILD_INPUTS) visit(resolve(root, input));
  hash.update(JSON.stringify(env));
  return hash.digest('hex');
}

/** The service-role key bypasses RLS: it must never reach the browser. */
export function assertNoServiceKey(dir: string, serviceRoleKey: string): void {
  const visit = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (readFileSync(full).includes(serviceRoleKey)) {
        throw new BuildError(
          `The service-role key was bundled into ${full}: refusing to serve this build.`,
        );
      }
    }
  };
  visit(dir);
}

export type BuildOptions = {
  /** The VITE_ variables of the build. */
  env: Record<string, string>;
  outDir: string;
  /** Records what was built, to skip the next build when nothing changed. */
  stampFile: string;
  serviceRoleKey: string;
  force?: boolean;
  root?: string;
  log: (message: string) => void;
  /** The vite process, so a Ctrl-C can stop it. */
  onChild?: (child: ChildProcess) => void;
};

export async function buildApp(options: BuildOptions): Promise<'built' | 'unchanged'> {
  const root = options.root ?? ROOT_DIR;
  const distIndex = join(options.outDir, 'index.html');
  const fingerprint = buildFingerprint(root, options.env);
  const stamp = () => `${fingerprint}:${statSync(distIndex).mtimeMs}`;
  if (
    !options.force &&
    existsSync(distIndex) &&
    existsSync(options.stampFile) &&
    readFileSync(options.stampFile, 'utf8') === stamp()
  ) {
    options.log(
      'App unchanged since the last build: serving it (npm start -- --rebuild to force).',
    );
    return 'unchanged';
  }
  options.log('Building the app (vite build)…');
  const started = Date.now();
  const vite = resolve(root, 'node_modules/vite/bin/vite.js');
  const output: string[] = [];
  const code = await new Promise<number | null>((done, reject) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--outDir', options.outDir, '--emptyOutDir'],
      {
        cwd: root,
        env: { ...process.env, ...options.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    options.onChild?.(child);
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('exit', done);
  });
  if (code !== 0) {
    throw new BuildError(
      `The app build failed (vite build exited with ${code}):\n${output.join('').trim()}`,
    );
  }
  assertNoServiceKey(options.outDir, options.serviceRoleKey);
  writeFileSync(options.stampFile, stamp());
  options.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return 'built';
}
