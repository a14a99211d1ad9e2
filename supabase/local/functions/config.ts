/**
 * Which Edge Functions exist and how they are served, read as the Supabase CLI reads them: every
 * `supabase/functions/<name>/index.ts` (folders starting with `_` or `.` hold shared code), with
 * its `[functions.<name>]` section of supabase/config.toml (`enabled`, `verify_jwt`,
 * `entrypoint`). The secrets come from `supabase/functions/.env`, the file
 * `supabase secrets set --env-file` sends to a hosted project.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';

import { parse } from 'smol-toml';

export type FunctionConfig = {
  name: string;
  /** Absolute path of the entry module. */
  entrypoint: string;
  /** Whether the platform checks the caller's JWT before the function runs (default true). */
  verifyJwt: boolean;
};

/** The CLI's rule for a function's name (utils.FuncSlugPattern). */
export const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

type FunctionSection = { enabled?: unknown; verify_jwt?: unknown; entrypoint?: unknown };

function functionSections(configFile: string): Record<string, FunctionSection> {
  if (!existsSync(configFile)) return {};
  const config = parse(readFileSync(configFile, 'utf8')) as { functions?: unknown };
  const sections = config.functions;
  if (sections === undefined) return {};
  if (typeof sections !== 'object' || sections === null || Array.isArray(sections)) {
    throw new Error(`${configFile}: [functions.<name>] sections expected.`);
  }
  return sections as Record<string, FunctionSection>;
}

/** The functions to serve, by name (disabled ones left out). */
export function readFunctions(functionsDir: string, configFile: string): FunctionConfig[] {
  const sections = functionSections(configFile);
  const names = new Set(Object.keys(sections));
  if (existsSync(functionsDir)) {
    for (const entry of readdirSync(functionsDir, { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(functionsDir, entry.name, 'index.ts')))
        names.add(entry.name);
    }
  }
  const functions: FunctionConfig[] = [];
  for (const name of [...names].sort()) {
    if (!FUNCTION_NAME.test(name)) continue;
    const section = sections[name] ?? {};
    if (section.enabled === false) continue;
    const entrypoint =
      typeof section.entrypoint === 'string'
        ? // As in config.toml, relative to the supabase/ folder.
          resolve(dirname(configFile), section.entrypoint)
        : join(functionsDir, name, 'index.ts');
    if (!existsSync(entrypoint)) {
      throw new Error(`Edge Function "${name}": its entrypoint ${entrypoint} does not exist.`);
    }
    functions.push({ name, entrypoint, verifyJwt: section.verify_jwt !== false });
  }
  return functions;
}

/**
 * The secrets of `supabase/functions/.env` (dotenv syntax). Names starting with `SUPABASE_` are
 * refused, as `supabase secrets set` refuses them: the platform sets those itself.
 */
export function readSecrets(envFile: string): Record<string, string> {
  if (!existsSync(envFile)) return {};
  const secrets = parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>;
  for (const name of Object.keys(secrets)) {
    if (name.startsWith('SUPABASE_')) {
      throw new Error(
        `${envFile}: ${name}: secrets cannot start with SUPABASE_ (the platform sets those).`,
      );
    }
  }
  return secrets;
}
