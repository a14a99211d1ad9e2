/**
 * Bucket names and object keys: normalised and validated as Supabase's storage-api does (its
 * S3-safe character set), plus the checks that keep a key inside its bucket's folder on disk.
 */
import { ERRORS } from './errors.ts';

/** storage-api's `isValidKey` character set: letters, digits, `_ / ! - . * ' ( ) space & $ @ = ; : + , ?`. */
const KEY_CHARS = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
/** storage-api's `isValidBucketName`: the same without `/`, 1 to 63 characters. */
const BUCKET_CHARS = /^(\w|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
/** S3's limit on a key, in UTF-8 bytes (our keys are ASCII). */
const MAX_KEY_LENGTH = 1024;

/** Leading, trailing and repeated slashes removed, as supabase-js and storage-api do. */
export function normalizeKey(raw: string): string {
  return raw.replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
}

export function isValidBucketName(name: string): boolean {
  return (
    name.length > 0 && name.length < 64 && name !== '.' && name !== '..' && BUCKET_CHARS.test(name)
  );
}

/** Whether an already normalised key is acceptable (never climbs out of its folder). */
export function isValidKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    KEY_CHARS.test(key) &&
    key.split('/').every((segment) => segment !== '.' && segment !== '..')
  );
}

/** Percent-decodes a path taken from a URL; `null` when the encoding is broken. */
export function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

export function mustBeValidBucketName(name: unknown): string {
  if (typeof name !== 'string' || !isValidBucketName(name)) throw ERRORS.invalidBucketName();
  return name;
}

/** Normalises and validates a key; throws storage-api's InvalidKey (400). */
export function mustBeValidKey(raw: unknown): string {
  if (typeof raw !== 'string') throw ERRORS.invalidKey(String(raw));
  const key = normalizeKey(raw);
  if (!isValidKey(key)) throw ERRORS.invalidKey(raw);
  return key;
}

/** `bucket/some/key` (already decoded) → its bucket and normalised key. */
export function splitBucketAndKey(path: string): { bucket: string; key: string } {
  const trimmed = path.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  const bucket = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const rest = slash < 0 ? '' : trimmed.slice(slash + 1);
  return { bucket: mustBeValidBucketName(bucket), key: mustBeValidKey(rest) };
}
