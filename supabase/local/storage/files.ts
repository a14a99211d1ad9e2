/**
 * Object bytes on disk: `<storageDir>/<bucket>/<key>`, with a staging folder beside the buckets
 * (`#staging`: `#` cannot appear in a bucket name) on the same file system, so every change is a
 * rename.
 *
 * A database write and its file change must land together or not at all. `FileChanges` records
 * each change made while the transaction is open, in a form that can be undone: a replaced or
 * removed file is first renamed into staging, not deleted. The transaction commits → `commit()`
 * deletes what was set aside; it fails → `rollback()` puts everything back. File changes happen
 * after the row change inside the transaction, so the row lock orders concurrent writers of one
 * key, and a removed object's bytes never disappear from under a newer upload of the same key.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, lstat, mkdir, open, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { FILE_SNIFF_BYTES } from '../../../src/domain/file-sniff.ts';

import { ERRORS } from './errors.ts';

type Undo = () => Promise<void>;

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errno(error) !== 'ENOENT') throw error;
  }
}

/** Renames `from` to `to`; false when `from` does not exist. */
async function renameIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if (errno(error) === 'ENOENT') return false;
    throw error;
  }
}

/** The file system cannot hold both an object `a` and an object `a/b`. */
function folderConflict(key: string) {
  return ERRORS.invalidKey(
    key,
    ' (a folder and an object cannot share this name in the local storage)',
  );
}

export class ObjectFiles {
  readonly stagingDir: string;
  private stagingReady: Promise<void> | undefined;

  constructor(readonly root: string) {
    this.stagingDir = join(root, '#staging');
  }

  bucketDir(bucket: string): string {
    return join(this.root, bucket);
  }

  /** Keys are validated (no `.`/`..` segments), so the path stays inside the bucket folder. */
  pathOf(bucket: string, key: string): string {
    return join(this.root, bucket, ...key.split('/'));
  }

  /** A fresh path in the staging folder, for an upload being received or a copy being made. */
  async stagingPath(): Promise<string> {
    this.stagingReady ??= mkdir(this.stagingDir, { recursive: true }).then(() => {});
    await this.stagingReady;
    return join(this.stagingDir, randomUUID());
  }

  /** The first FILE_SNIFF_BYTES bytes of an object (404 when its bytes are missing). */
  async readHead(bucket: string, key: string): Promise<Uint8Array> {
    let handle;
    try {
      handle = await open(this.pathOf(bucket, key), 'r');
    } catch (error) {
      if (errno(error) === 'ENOENT') throw ERRORS.noSuchKey();
      throw error;
    }
    try {
      const buffer = new Uint8Array(FILE_SNIFF_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, FILE_SNIFF_BYTES, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async discard(path: string): Promise<void> {
    await unlinkIfPresent(path).catch(() => {});
  }

  changes(): FileChanges {
    return new FileChanges(this);
  }

  /** Removes a deleted bucket's folder (only orphaned bytes can be left in it). */
  async removeBucketDir(bucket: string): Promise<void> {
    await rm(this.bucketDir(bucket), { recursive: true, force: true });
  }

  /** Removes empty folders from the key's folder up to (not including) the bucket folder. */
  async pruneEmptyDirs(bucket: string, key: string): Promise<void> {
    const stop = this.bucketDir(bucket);
    let dir = dirname(this.pathOf(bucket, key));
    while (dir.startsWith(stop + '/')) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty, or already gone
      }
      dir = dirname(dir);
    }
  }
}

export class FileChanges {
  private undo: Undo[] = [];
  private setAside: string[] = [];
  private vacated: Array<{ bucket: string; key: string }> = [];

  constructor(private readonly files: ObjectFiles) {}

  /** Moves the object's current bytes (if any) into staging. */
  private async setAsideCurrent(bucket: string, key: string): Promise<void> {
    const path = this.files.pathOf(bucket, key);
    try {
      // Never a folder: renaming it would take other objects' bytes with it.
      if ((await lstat(path)).isDirectory()) throw folderConflict(key);
    } catch (error) {
      const code = errno(error);
      if (code === 'ENOENT') return;
      if (code === 'ENOTDIR') throw folderConflict(key);
      throw error;
    }
    const aside = await this.files.stagingPath();
    if (await renameIfPresent(path, aside)) {
      this.setAside.push(aside);
      this.undo.push(async () => {
        await mkdir(dirname(path), { recursive: true });
        await rename(aside, path);
      });
    }
  }

  private async putInPlace(source: string, bucket: string, key: string): Promise<void> {
    const path = this.files.pathOf(bucket, key);
    try {
      await mkdir(dirname(path), { recursive: true });
      await rename(source, path);
    } catch (error) {
      const code = errno(error);
      if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
        throw folderConflict(key);
      }
      throw error;
    }
    this.undo.push(async () => {
      await rename(path, source);
    });
  }

  /** Puts a staged file at the object's place, setting aside what was there. */
  async place(staged: string, bucket: string, key: string): Promise<void> {
    await this.setAsideCurrent(bucket, key);
    await this.putInPlace(staged, bucket, key);
  }

  /** Sets the object's bytes aside (deleted for good on commit). */
  async remove(bucket: string, key: string): Promise<void> {
    await this.setAsideCurrent(bucket, key);
    this.vacated.push({ bucket, key });
  }

  async move(from: { bucket: string; key: string }, to: { bucket: string; key: string }) {
    const source = this.files.pathOf(from.bucket, from.key);
    const staged = await this.files.stagingPath();
    if (!(await renameIfPresent(source, staged))) throw ERRORS.noSuchKey();
    this.undo.push(async () => {
      await mkdir(dirname(source), { recursive: true });
      await rename(staged, source);
    });
    this.vacated.push(from);
    await this.place(staged, to.bucket, to.key);
  }

  async copy(from: { bucket: string; key: string }, to: { bucket: string; key: string }) {
    const staged = await this.files.stagingPath();
    try {
      await copyFile(this.files.pathOf(from.bucket, from.key), staged);
    } catch (error) {
      await this.files.discard(staged);
      if (errno(error) === 'ENOENT') throw ERRORS.noSuchKey();
      throw error;
    }
    this.undo.push(() => this.files.discard(staged));
    await this.place(staged, to.bucket, to.key);
  }

  /** The transaction committed: delete what was set aside. Never throws. */
  async commit(): Promise<void> {
    this.undo = [];
    await Promise.all(this.setAside.map((path) => this.files.discard(path)));
    for (const { bucket, key } of this.vacated) {
      await this.files.pruneEmptyDirs(bucket, key).catch(() => {});
    }
  }

  /** The transaction failed: undo every change, newest first. Never throws. */
  async rollback(): Promise<void> {
    const steps = this.undo.reverse();
    this.undo = [];
    for (const step of steps) {
      await step().catch(() => {});
    }
  }
}
