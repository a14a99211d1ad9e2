/**
 * The project's JWT signing keys (docs/auth.md, "Signing keys"): ES256 (P-256) key pairs kept in
 * the data directory (`signing-keys.json`, never committed: each machine and each test stack
 * draws its own), one `current` (signs access tokens), at most one `standby` (published, not yet
 * signing) and the `previous` ones (published until the tokens they signed have expired). The
 * legacy HS256 secret still verifies the anon and service-role keys, as on Supabase.
 *
 * The file is the truth: `npm run keys` changes it, and a running stack notices (it polls the
 * file), verifies with the new set at once and hands PostgREST the new JWKS.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import {
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from 'node:fs';

import type { JwtVerifier } from './jwt.ts';

export type KeyStatus = 'current' | 'standby' | 'previous';

export type StoredKey = {
  kid: string;
  status: KeyStatus;
  created_at: string;
  /** When it stopped signing (previous keys). */
  rotated_at?: string;
  private_jwk: JsonWebKey;
};

export type KeyFile = { note: string; keys: StoredKey[] };

/** A public key as GoTrue's `/.well-known/jwks.json` lists it. */
export type PublicJwk = {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
  key_ops: ['verify'];
};

const NOTE =
  'Development signing keys of the local stack (docs/auth.md, "Signing keys"). Never use them for a hosted project.';

export function newKey(status: KeyStatus, now = new Date()): StoredKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    kid: randomUUID(),
    status,
    created_at: now.toISOString(),
    private_jwk: privateKey.export({ format: 'jwk' }),
  };
}

export function publicJwk(key: StoredKey): PublicJwk {
  const { x, y } = key.private_jwk;
  return {
    kty: 'EC',
    crv: 'P-256',
    x: x!,
    y: y!,
    kid: key.kid,
    alg: 'ES256',
    use: 'sig',
    key_ops: ['verify'],
  };
}

export function readKeyFile(path: string): KeyFile {
  const file = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  if (!Array.isArray(file.keys) || file.keys.filter((k) => k.status === 'current').length !== 1) {
    throw new Error(`${path} must hold exactly one current signing key.`);
  }
  return file;
}

/** Writes atomically (a running stack never reads half a file), readable by the owner only. */
export function writeKeyFile(path: string, file: KeyFile): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** The key file, created with one current key when there is none yet. */
export function ensureKeyFile(path: string): KeyFile {
  if (!existsSync(path)) writeKeyFile(path, { note: NOTE, keys: [newKey('current')] });
  return readKeyFile(path);
}

/** Step 1: a new standby key, published in the JWKS but not signing yet. */
export function addStandby(file: KeyFile, now = new Date()): StoredKey {
  if (file.keys.some((k) => k.status === 'standby')) {
    throw new Error('There is already a standby key: rotate to it first (npm run keys -- rotate).');
  }
  const key = newKey('standby', now);
  file.keys.push(key);
  return key;
}

/** Step 2: the standby key signs from now on; the current one becomes previous (still verifies). */
export function rotate(
  file: KeyFile,
  now = new Date(),
): { current: StoredKey; previous: StoredKey } {
  const standby = file.keys.find((k) => k.status === 'standby');
  if (!standby) {
    throw new Error(
      'No standby key: create one first (npm run keys -- standby) and let clients see it in the JWKS.',
    );
  }
  const previous = file.keys.find((k) => k.status === 'current')!;
  previous.status = 'previous';
  previous.rotated_at = now.toISOString();
  standby.status = 'current';
  return { current: standby, previous };
}

/**
 * Step 3: removes the previous keys whose tokens have all expired (`jwtExpiry` seconds after the
 * rotation), or the one named by `kid` at once with `force` (its tokens stop working).
 */
export function revoke(
  file: KeyFile,
  jwtExpiry: number,
  options: { kid?: string; force?: boolean; now?: Date } = {},
): { removed: string[]; waiting: Array<{ kid: string; until: string }> } {
  const now = (options.now ?? new Date()).getTime();
  const removed: string[] = [];
  const waiting: Array<{ kid: string; until: string }> = [];
  if (options.kid && !file.keys.some((k) => k.kid === options.kid)) {
    throw new Error(`No signing key ${options.kid}.`);
  }
  file.keys = file.keys.filter((key) => {
    if (options.kid && key.kid !== options.kid) return true;
    if (key.status === 'current') {
      if (options.kid) throw new Error('The current key cannot be revoked: rotate first.');
      return true;
    }
    if (key.status === 'standby') {
      if (options.kid) removed.push(key.kid);
      return !options.kid;
    }
    const until = new Date(key.rotated_at ?? key.created_at).getTime() + jwtExpiry * 1000;
    if (until <= now || options.force) {
      removed.push(key.kid);
      return false;
    }
    waiting.push({ kid: key.kid, until: new Date(until).toISOString() });
    return true;
  });
  return { removed, waiting };
}

const ORDER: Record<KeyStatus, number> = { current: 0, standby: 1, previous: 2 };

/** The live key set of a running stack: signs, verifies, serves the JWKS, follows the file. */
export class SigningKeys implements JwtVerifier {
  private file!: KeyFile;
  private stamp = '';
  private publicKeys = new Map<string, KeyObject>();
  private signer!: { kid: string; privateKey: KeyObject };
  private listeners: Array<() => void> = [];
  private watching = false;

  constructor(
    readonly path: string,
    readonly secret: string,
  ) {
    ensureKeyFile(path);
    this.refresh();
  }

  /** Re-reads the file when it changed; true when it did. */
  refresh(): boolean {
    let stamp: string;
    try {
      const s = statSync(this.path);
      stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return false;
    }
    if (stamp === this.stamp) return false;
    let file: KeyFile;
    try {
      file = readKeyFile(this.path);
    } catch (error) {
      // A broken edit of a running stack's file: keep verifying with the last good set.
      if (this.stamp) return false;
      throw error;
    }
    const current = file.keys.find((k) => k.status === 'current')!;
    this.file = file;
    this.stamp = stamp;
    this.publicKeys = new Map(
      file.keys.map((k) => [k.kid, createPublicKey({ key: publicJwk(k), format: 'jwk' })]),
    );
    this.signer = {
      kid: current.kid,
      privateKey: createPrivateKey({ key: current.private_jwk, format: 'jwk' }),
    };
    for (const listener of this.listeners) listener();
    return true;
  }

  /** The key that signs access tokens now. */
  current(): { kid: string; privateKey: KeyObject } {
    this.refresh();
    return this.signer;
  }

  publicKey(kid: string): KeyObject | null {
    this.refresh();
    return this.publicKeys.get(kid) ?? null;
  }

  /** GoTrue's `/.well-known/jwks.json`: the public keys only, current first. */
  jwks(): { keys: PublicJwk[] } {
    this.refresh();
    const keys = [...this.file.keys].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
    return { keys: keys.map(publicJwk) };
  }

  /** PostgREST's `jwt-secret`: the JWKS plus the legacy secret as an `oct` key (HS256). */
  postgrestJwks(): string {
    const legacy = { kty: 'oct', k: Buffer.from(this.secret).toString('base64url'), alg: 'HS256' };
    return JSON.stringify({ keys: [...this.jwks().keys, legacy] });
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Polls the file (`npm run keys` from another process) until close(). */
  watch(intervalMs = 500): void {
    if (this.watching) return;
    this.watching = true;
    watchFile(this.path, { interval: intervalMs }, () => {
      try {
        this.refresh();
      } catch {
        // A file being replaced: the next poll reads it.
      }
    });
  }

  close(): void {
    if (this.watching) unwatchFile(this.path);
    this.watching = false;
    this.listeners = [];
  }
}
