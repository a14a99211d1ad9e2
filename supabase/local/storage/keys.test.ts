import { describe, expect, it } from 'vitest';

import {
  decodePath,
  isValidBucketName,
  isValidKey,
  mustBeValidKey,
  normalizeKey,
  splitBucketAndKey,
} from './keys.ts';

describe('object keys', () => {
  it('drops edge and repeated slashes like Supabase', () => {
    expect(normalizeKey('/a//b///c.pdf/')).toBe('a/b/c.pdf');
    expect(mustBeValidKey('//3f1c/licence.pdf')).toBe('3f1c/licence.pdf');
  });

  it("accepts storage-api's S3-safe characters", () => {
    expect(isValidKey("a-b_c.d/(1) !$&'*+,;=:@?.pdf")).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['parent segment', 'a/../b'],
    ['leading parent', '../etc/passwd'],
    ['current segment', 'a/./b'],
    ['non-ASCII (as storage-api)', 'résumé.pdf'],
    ['backslash', 'a\\b'],
    ['NUL', 'a\0b'],
    ['percent', 'a%2Fb'],
    ['too long', 'a'.repeat(1025)],
  ])('refuses %s', (_name, key) => {
    expect(isValidKey(key)).toBe(false);
  });

  it('refuses with InvalidKey (400)', () => {
    expect(() => mustBeValidKey('a/../b')).toThrow(
      expect.objectContaining({
        statusCode: 400,
        code: 'InvalidKey',
        message: 'Invalid key: a/../b',
      }),
    );
    expect(() => mustBeValidKey(42)).toThrow(expect.objectContaining({ code: 'InvalidKey' }));
  });
});

describe('bucket names', () => {
  it('accepts names up to 63 characters without slashes', () => {
    expect(isValidBucketName('flight-documents')).toBe(true);
    expect(isValidBucketName('b'.repeat(63))).toBe(true);
    expect(isValidBucketName('b'.repeat(64))).toBe(false);
    expect(isValidBucketName('a/b')).toBe(false);
    expect(isValidBucketName('..')).toBe(false);
    expect(isValidBucketName('#staging')).toBe(false);
  });
});

describe('paths', () => {
  it('splits a decoded path into its bucket and normalised key', () => {
    expect(splitBucketAndKey('/licenses/abc//x.pdf')).toEqual({
      bucket: 'licenses',
      key: 'abc/x.pdf',
    });
    expect(() => splitBucketAndKey('licenses')).toThrow(
      expect.objectContaining({ code: 'InvalidKey' }),
    );
    expect(() => splitBucketAndKey('../x')).toThrow(
      expect.objectContaining({ code: 'InvalidBucketName' }),
    );
  });

  it('decodes percent-encoding, and reports broken encoding', () => {
    expect(decodePath('/a%20b/c%2Fd')).toBe('/a b/c/d');
    expect(decodePath('/a%E0%A4%A')).toBeNull();
  });
});
