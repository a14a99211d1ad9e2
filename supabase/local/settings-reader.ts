/**
 * Reading supabase/config.toml's values as the Supabase CLI decodes them: `env(NAME)`
 * substitution, sizes ("50MiB"), durations ("1h"), typed look-ups that name the setting when a
 * value has the wrong type, and the error that stops the stack on a setting it cannot emulate.
 */
/** A setting of config.toml the local stack cannot run with. */
export class UnsupportedSettingError extends Error {
  constructor(
    readonly setting: string,
    reason: string,
  ) {
    super(`supabase/config.toml: ${setting}: ${reason}`);
    this.name = 'UnsupportedSettingError';
  }
}

export type Table = Record<string, unknown>;

const ENV_REFERENCE = /^env\(([A-Z_][A-Z0-9_]*)\)$/;

/** Replaces `env(NAME)` strings, everywhere in the document, as the CLI does before decoding. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    const match = ENV_REFERENCE.exec(value);
    if (!match) return value;
    const replacement = env[match[1]!];
    return replacement === undefined ? value : replacement;
  }
  if (Array.isArray(value)) return value.map((item) => substituteEnv(item, env));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Table).map(([k, v]) => [k, substituteEnv(v, env)]),
    );
  }
  return value;
}

function table(parent: Table, key: string): Table {
  const value = parent[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}

/** Reads typed values with the CLI's defaults; a value of the wrong type is an error. */
export class Reader {
  constructor(
    private readonly root: Table,
    private readonly path: string,
  ) {}

  at(key: string): Reader {
    return new Reader(table(this.root, key), this.path ? `${this.path}.${key}` : key);
  }

  keys(): string[] {
    return Object.keys(this.root);
  }

  has(key: string): boolean {
    return this.root[key] !== undefined;
  }

  private raw(key: string): unknown {
    return this.root[key];
  }

  private wrong(key: string, expected: string): never {
    throw new UnsupportedSettingError(
      `${this.path}.${key}`,
      `expected ${expected}, got ${JSON.stringify(this.raw(key))}`,
    );
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.raw(key);
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    return this.wrong(key, 'true or false');
  }

  num(key: string, fallback: number): number {
    const value = this.raw(key);
    if (value === undefined) return fallback;
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
    return this.wrong(key, 'a number');
  }

  str(key: string, fallback: string): string {
    const value = this.raw(key);
    if (value === undefined) return fallback;
    if (typeof value === 'string') return value;
    return this.wrong(key, 'a string');
  }

  strings(key: string, fallback: string[]): string[] {
    const value = this.raw(key);
    if (value === undefined) return fallback;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
    return this.wrong(key, 'a list of strings');
  }

  /** A concrete value: an `env(NAME)` left unresolved is an error naming the variable. */
  resolved(key: string): string {
    const value = this.str(key, '');
    const match = ENV_REFERENCE.exec(value);
    if (match) {
      throw new UnsupportedSettingError(
        `${this.path}.${key}`,
        `set the environment variable ${match[1]} (it is read as env(${match[1]})).`,
      );
    }
    return value;
  }
}

/** "5MiB", "50MB", "512KB", 1024 → bytes (the CLI's sizes). */
export function parseSize(raw: string | number): number {
  if (typeof raw === 'number') return raw;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*$/i.exec(raw);
  if (!match) throw new UnsupportedSettingError('storage.file_size_limit', `bad size "${raw}"`);
  const units: Record<string, number> = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
  };
  return Math.round(Number(match[1]) * (units[(match[2] ?? 'B').toUpperCase()] ?? 1));
}

/** "60s", "1m30s", "1h" → seconds (Go durations, as max_frequency is written). */
export function parseDurationSeconds(setting: string, raw: string): number {
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== raw.trim()) {
    throw new UnsupportedSettingError(setting, `bad duration "${raw}" (e.g. "60s", "1m")`);
  }
  const factor: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * (factor[unit ?? 's'] ?? 1), 0);
}
