// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PATHS } from '../config.ts';
import { readFunctions, readSecrets } from './config.ts';

const dir = mkdtempSync(join(tmpdir(), 'kiraa-functions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readFunctions', () => {
  it('serves the repository’s functions with config.toml’s verify_jwt', () => {
    const functions = readFunctions(PATHS.functions, PATHS.config);
    expect(functions.map((f) => [f.name, f.verifyJwt])).toEqual([
      // Every function checks its caller in code (docs/functions.md, "Callers"); invite-staff,
      // which the app calls with a user's token, has the platform check it first too.
      ['check-upload', false],
      ['clean-uploads', false],
      ['invite-staff', true],
      ['push-send', false],
      ['send-email', false],
      ['send-mail', false],
    ]);
  });

  it('finds folders with an index.ts, skips _shared and disabled ones, defaults to verify_jwt', () => {
    const functions = join(dir, 'functions');
    for (const name of ['_shared', 'hello', 'off', 'notes'])
      mkdirSync(join(functions, name), { recursive: true });
    for (const name of ['_shared', 'hello', 'off'])
      writeFileSync(join(functions, name, 'index.ts'), '');
    const config = join(dir, 'config.toml');
    writeFileSync(config, '[functions.off]\nenabled = false\n');
    expect(readFunctions(functions, config)).toEqual([
      { name: 'hello', entrypoint: join(functions, 'hello', 'index.ts'), verifyJwt: true },
    ]);
    writeFileSync(config, '[functions.ghost]\nverify_jwt = false\n');
    expect(() => readFunctions(functions, config)).toThrow(/ghost.*does not exist/);
  });
});

describe('readSecrets', () => {
  it('reads a dotenv file and refuses SUPABASE_ names, as supabase secrets set does', () => {
    const file = join(dir, '.env');
    writeFileSync(file, '# mail\nMAIL_FROM="Kiraa <a@b.dz>"\nMAIL_API_KEY=re_1\n');
    expect(readSecrets(file)).toEqual({ MAIL_FROM: 'Kiraa <a@b.dz>', MAIL_API_KEY: 're_1' });
    writeFileSync(file, 'SUPABASE_URL=http://x\n');
    expect(() => readSecrets(file)).toThrow(/cannot start with SUPABASE_/);
    expect(readSecrets(join(dir, 'missing.env'))).toEqual({});
  });
});
