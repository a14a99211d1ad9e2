// @vitest-environment node
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  assertNoServiceKey,
  BUILD_INPUTS,
  BuildError,
  buildApp,
  buildFingerprint,
} from './build.ts';
import { ROOT_DIR } from './config.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kiraa-build-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/main.tsx'), 'export {};');
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('buildFingerprint', () => {
  it('is stable, and changes with a source file or a build variable', () => {
    const env = { VITE_SUPABASE_URL: 'http://localhost:54321' };
    const first = buildFingerprint(root, env);
    expect(buildFingerprint(root, { ...env })).toBe(first);

    expect(buildFingerprint(root, { VITE_SUPABASE_URL: 'https://x.supabase.co' })).not.toBe(first);

    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'src/main.tsx'), later, later);
    const touched = buildFingerprint(root, env);
    expect(touched).not.toBe(first);

    writeFileSync(join(root, 'src/new.ts'), 'export const x = 1;');
    expect(buildFingerprint(root, env)).not.toBe(touched);
  });
});

describe('BUILD_INPUTS', () => {
  it("cover every file of the project that vite.config.ts imports (the build's own steps)", () => {
    const config = readFileSync(join(ROOT_DIR, 'vite.config.ts'), 'utf8');
    const local = [...config.matchAll(/from '\.\/([^']+)'/g)].map((match) => match[1]!);
    expect(local.length).toBeGreaterThan(0);
    for (const path of local) {
      expect(
        BUILD_INPUTS.some((input) => path === input || path.startsWith(`${input}/`)),
        path,
      ).toBe(true);
    }
  });
});

describe('assertNoServiceKey', () => {
  it('refuses a build that contains the service-role key', () => {
    const dist = join(root, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'assets/app.js'), 'const anon = "eyJ.anon";');
    expect(() => assertNoServiceKey(dist, 'eyJ.service')).not.toThrow();
    writeFileSync(join(dist, 'assets/leak.js'), 'const key = "eyJ.service";');
    expect(() => assertNoServiceKey(dist, 'eyJ.service')).toThrow(BuildError);
    expect(() => assertNoServiceKey(dist, 'eyJ.service')).toThrow(/leak\.js: refusing to serve/);
  });
});

describe('buildApp', () => {
  it('skips the build when the stamp matches the inputs and the output', async () => {
    const dist = join(root, 'dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html>');
    const stampFile = join(root, 'stamp');
    const env = { VITE_SUPABASE_URL: 'http://localhost:54321' };
    writeFileSync(
      stampFile,
      `${buildFingerprint(root, env)}:${statSync(join(dist, 'index.html')).mtimeMs}`,
    );
    const logs: string[] = [];
    const result = await buildApp({
      env,
      outDir: dist,
      stampFile,
      serviceRoleKey: 'eyJ.service',
      root,
      log: (line) => logs.push(line),
    });
    expect(result).toBe('unchanged');
    expect(logs[0]).toMatch(/App unchanged since the last build/);
  });
});
