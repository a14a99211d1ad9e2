import { afterEach, describe, expect, it, vi } from 'vitest';

import { AUTH_META_PREFIX, createAuthStorage } from '@/infra/auth-storage';
import { KiraaDb } from '@/infra/db';

const databases: KiraaDb[] = [];
function freshDb() {
  const database = new KiraaDb(`auth-storage-test-${crypto.randomUUID()}`);
  databases.push(database);
  return database;
}

afterEach(async () => {
  await Promise.all(databases.splice(0).map((d) => d.delete()));
  vi.restoreAllMocks();
});

describe('auth storage adapter', () => {
  it('stores, reads and removes items in the meta table of IndexedDB', async () => {
    const database = freshDb();
    const storage = createAuthStorage(database);
    expect(await storage.getItem('kiraa-auth')).toBeNull();

    await storage.setItem('kiraa-auth', '{"access_token":"a"}');
    expect(await storage.getItem('kiraa-auth')).toBe('{"access_token":"a"}');
    expect(await database.meta.get(`${AUTH_META_PREFIX}kiraa-auth`)).toEqual({
      key: 'auth:kiraa-auth',
      value: '{"access_token":"a"}',
    });

    await storage.removeItem('kiraa-auth');
    expect(await storage.getItem('kiraa-auth')).toBeNull();
    expect(await database.meta.get('auth:kiraa-auth')).toBeUndefined();
  });

  it('is shared by every adapter over the same database (another tab, the service worker)', async () => {
    const database = freshDb();
    const page = createAuthStorage(database);
    const worker = createAuthStorage(new KiraaDb(database.name));
    await page.setItem('kiraa-auth', 'v1');
    expect(await worker.getItem('kiraa-auth')).toBe('v1');
    // A removal elsewhere is seen here: no stale copy resurrects the session.
    await worker.removeItem('kiraa-auth');
    expect(await page.getItem('kiraa-auth')).toBeNull();
  });

  it('survives a reopen of the database (a reload)', async () => {
    const database = freshDb();
    await createAuthStorage(database).setItem('kiraa-auth', 'persisted');
    database.close();
    const reopened = new KiraaDb(database.name);
    databases.push(reopened);
    expect(await createAuthStorage(reopened).getItem('kiraa-auth')).toBe('persisted');
  });

  it('does not touch meta rows of other owners', async () => {
    const database = freshDb();
    await database.meta.put({ key: 'kiraa-auth', value: 'sync cursor' });
    const storage = createAuthStorage(database);
    expect(await storage.getItem('kiraa-auth')).toBeNull();
    await storage.setItem('kiraa-auth', 'session');
    await storage.removeItem('kiraa-auth');
    expect(await database.meta.get('kiraa-auth')).toEqual({
      key: 'kiraa-auth',
      value: 'sync cursor',
    });
  });

  it('falls back to memory when IndexedDB fails', async () => {
    const database = freshDb();
    const storage = createAuthStorage(database);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(database.meta, 'put').mockRejectedValue(new Error('QuotaExceededError'));
    vi.spyOn(database.meta, 'get').mockRejectedValue(new Error('InvalidStateError'));
    await storage.setItem('kiraa-auth', 'in-memory');
    expect(await storage.getItem('kiraa-auth')).toBe('in-memory');
    vi.spyOn(database.meta, 'delete').mockRejectedValue(new Error('InvalidStateError'));
    await storage.removeItem('kiraa-auth');
    expect(await storage.getItem('kiraa-auth')).toBeNull();
  });
});
