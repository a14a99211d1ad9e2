import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Db, JwtClaims, Queryable, ServiceContext } from '../context.ts';

import { StorageApiError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import { withFiles } from './shared.ts';

let root: string;
let files: ObjectFiles;

const read = (bucket: string, key: string) => {
  const path = files.pathOf(bucket, key);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
};

async function stage(content: string): Promise<string> {
  const path = await files.stagingPath();
  writeFileSync(path, content);
  return path;
}

async function put(bucket: string, key: string, content: string) {
  const changes = files.changes();
  await changes.place(await stage(content), bucket, key);
  await changes.commit();
}

const staging = () => readdirSync(files.stagingDir);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kiraa-files-'));
  files = new ObjectFiles(root);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('FileChanges', () => {
  it('places a new object and commits it', async () => {
    await put('b', 'f/one.txt', 'one');
    expect(read('b', 'f/one.txt')).toBe('one');
    expect(staging()).toEqual([]);
  });

  it('restores the replaced bytes when rolled back, and drops them when committed', async () => {
    await put('b', 'doc.txt', 'v1');

    const failed = files.changes();
    await failed.place(await stage('v2'), 'b', 'doc.txt');
    expect(read('b', 'doc.txt')).toBe('v2');
    await failed.rollback();
    expect(read('b', 'doc.txt')).toBe('v1');

    const committed = files.changes();
    await committed.place(await stage('v3'), 'b', 'doc.txt');
    await committed.commit();
    expect(read('b', 'doc.txt')).toBe('v3');
    // The staged v2 went back to staging on rollback (the caller discards it); v1 is gone.
    expect(staging()).toHaveLength(1);
  });

  it('removes bytes only for good on commit, and prunes emptied folders', async () => {
    await put('b', 'a/b/c.txt', 'c');
    const rolledBack = files.changes();
    await rolledBack.remove('b', 'a/b/c.txt');
    expect(read('b', 'a/b/c.txt')).toBeNull();
    await rolledBack.rollback();
    expect(read('b', 'a/b/c.txt')).toBe('c');

    const committed = files.changes();
    await committed.remove('b', 'a/b/c.txt');
    await committed.commit();
    expect(read('b', 'a/b/c.txt')).toBeNull();
    expect(existsSync(join(root, 'b', 'a'))).toBe(false);
    expect(existsSync(join(root, 'b'))).toBe(true);
    expect(staging()).toEqual([]);
  });

  it('moves and copies reversibly', async () => {
    await put('b', 'src.txt', 'data');
    await put('b', 'dst.txt', 'old');

    const move = files.changes();
    await move.move({ bucket: 'b', key: 'src.txt' }, { bucket: 'c', key: 'x/dst.txt' });
    expect(read('c', 'x/dst.txt')).toBe('data');
    expect(read('b', 'src.txt')).toBeNull();
    await move.rollback();
    expect(read('b', 'src.txt')).toBe('data');
    expect(read('c', 'x/dst.txt')).toBeNull();

    const copy = files.changes();
    await copy.copy({ bucket: 'b', key: 'src.txt' }, { bucket: 'b', key: 'dst.txt' });
    expect(read('b', 'dst.txt')).toBe('data');
    await copy.rollback();
    expect(read('b', 'dst.txt')).toBe('old');
    expect(read('b', 'src.txt')).toBe('data');
    expect(staging()).toEqual([]);
  });

  it('refuses an object whose name is already a folder (and the reverse)', async () => {
    await put('b', 'folder/file.txt', 'x');
    const changes = files.changes();
    await expect(changes.place(await stage('y'), 'b', 'folder')).rejects.toMatchObject({
      code: 'InvalidKey',
    });
    await expect(
      changes.place(await stage('z'), 'b', 'folder/file.txt/deeper'),
    ).rejects.toBeInstanceOf(StorageApiError);
    await changes.rollback();
    expect(read('b', 'folder/file.txt')).toBe('x');
  });

  it('reads the head of an object for type checks', async () => {
    await put('b', 'h.txt', 'x'.repeat(10_000));
    expect((await files.readHead('b', 'h.txt')).length).toBe(4096);
    await expect(files.readHead('b', 'missing')).rejects.toMatchObject({ code: 'NoSuchKey' });
  });
});

describe('withFiles', () => {
  /** A Db whose transaction runs `fn` and then fails to commit, or commits. */
  function storageWith(commitFails: boolean) {
    const q: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) };
    const db = {
      asClaims: async <T>(_claims: JwtClaims | null, fn: (q: Queryable) => Promise<T>) => {
        const result = await fn(q);
        if (commitFails) throw Object.assign(new Error('could not serialize'), { code: '40001' });
        return result;
      },
    } as unknown as Db;
    return { ctx: { db } as ServiceContext, files };
  }

  it('undoes the file change when the transaction fails at commit', async () => {
    await put('b', 'k.txt', 'before');
    const staged = await stage('after');
    await expect(
      withFiles(storageWith(true), { role: 'anon' }, (_q, changes) =>
        changes.place(staged, 'b', 'k.txt'),
      ),
    ).rejects.toMatchObject({ code: '40001' });
    expect(read('b', 'k.txt')).toBe('before');
  });

  it('keeps the file change when the transaction commits', async () => {
    await put('b', 'k.txt', 'before');
    const staged = await stage('after');
    await withFiles(storageWith(false), { role: 'anon' }, (_q, changes) =>
      changes.place(staged, 'b', 'k.txt'),
    );
    expect(read('b', 'k.txt')).toBe('after');
    expect(staging()).toEqual([]);
  });

  it('maps a refusal by RLS to storage-api AccessDenied', async () => {
    const db = {
      asClaims: async () => {
        throw Object.assign(
          new Error('new row violates row-level security policy for table "objects"'),
          {
            code: '42501',
          },
        );
      },
    } as unknown as Db;
    await expect(
      withFiles({ ctx: { db } as ServiceContext, files }, { role: 'anon' }, async () => {}),
    ).rejects.toMatchObject({
      statusCode: 403,
      error: 'Unauthorized',
      message: 'new row violates row-level security policy',
    });
  });
});
