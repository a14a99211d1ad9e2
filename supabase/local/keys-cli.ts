/**
 * `npm run keys -- <command>`: the local stack's JWT signing keys (docs/auth.md, "Signing keys").
 *
 *   list             the keys and their status
 *   standby          step 1: a new key, published in the JWKS, not signing yet
 *   rotate           step 2: the standby key signs from now on; the current one becomes previous
 *   revoke [kid]     step 3: removes previous keys whose tokens have expired (jwt_expiry after the
 *                    rotation); `revoke <kid> --force` removes one at once (its tokens stop working)
 *
 * It edits `<KIRAA_DATA_DIR or .kiraa>/signing-keys.json`; a running stack follows within a second.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import { DEFAULT_DATA_DIR, PATHS, dataPaths } from './config.ts';
import { loadSettings } from './settings.ts';
import {
  addStandby,
  ensureKeyFile,
  revoke,
  rotate,
  writeKeyFile,
  type KeyFile,
} from './signing-keys.ts';

function list(file: KeyFile): void {
  for (const key of file.keys) {
    const since = key.rotated_at ? `, signed until ${key.rotated_at}` : '';
    console.info(`${key.kid}  ${key.status.padEnd(8)} created ${key.created_at}${since}`);
  }
}

export function runKeysCommand(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const [command = 'list', ...rest] = args;
  const dataDir = resolve(env.KIRAA_DATA_DIR || DEFAULT_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const path = dataPaths(dataDir).signingKeys;
  const file = ensureKeyFile(path);
  if (command === 'list') return list(file);
  if (command === 'standby') {
    const key = addStandby(file);
    writeKeyFile(path, file);
    console.info(
      `Standby key ${key.kid} is in the JWKS. Rotate once clients have fetched it (their JWKS cache lives 10 min).`,
    );
  } else if (command === 'rotate') {
    const { current, previous } = rotate(file);
    writeKeyFile(path, file);
    console.info(
      `Key ${current.kid} now signs; ${previous.kid} still verifies until its tokens expire.`,
    );
  } else if (command === 'revoke') {
    const kid = rest.find((a) => !a.startsWith('--'));
    const force = rest.includes('--force');
    const jwtExpiry = loadSettings(PATHS.config, env).auth.jwtExpiry;
    const { removed, waiting } = revoke(file, jwtExpiry, { kid, force });
    writeKeyFile(path, file);
    for (const k of removed) console.info(`Removed ${k} from the JWKS.`);
    for (const w of waiting)
      console.info(`Kept ${w.kid}: tokens it signed live until ${w.until} (or --force).`);
  } else {
    throw new Error(
      `Unknown command "${command}": list, standby, rotate or revoke [kid] [--force].`,
    );
  }
  list(file);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'keys-cli.ts')) {
  try {
    runKeysCommand(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
