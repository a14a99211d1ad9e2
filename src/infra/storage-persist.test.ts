import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { activateLocale } from '@/infra/i18n';
import { requestPersistentStorage, resetPersistWarning } from '@/infra/storage-persist';
import { dismissAllToasts, getToasts } from '@/infra/toast';

const original = Object.getOwnPropertyDescriptor(navigator, 'storage');

function stubStorage(storage: Partial<StorageManager> | undefined) {
  Object.defineProperty(navigator, 'storage', { configurable: true, value: storage });
}

describe('requestPersistentStorage', () => {
  beforeEach(async () => {
    await activateLocale('fr');
    dismissAllToasts();
    resetPersistWarning();
  });
  afterEach(() => {
    if (original) Object.defineProperty(navigator, 'storage', original);
    else Reflect.deleteProperty(navigator, 'storage');
  });

  it('is granted without asking again when already persistent', async () => {
    const persist = vi.fn();
    stubStorage({ persisted: async () => true, persist });
    expect(await requestPersistentStorage()).toBe('granted');
    expect(persist).not.toHaveBeenCalled();
  });

  it('asks the browser and reports the grant', async () => {
    stubStorage({ persisted: async () => false, persist: async () => true });
    expect(await requestPersistentStorage()).toBe('granted');
    expect(getToasts()).toHaveLength(0);
  });

  it('warns once per visit when refused', async () => {
    stubStorage({ persisted: async () => false, persist: async () => false });
    expect(await requestPersistentStorage()).toBe('denied');
    expect(getToasts()).toMatchObject([{ id: 'storage-not-persistent', kind: 'warning' }]);
    dismissAllToasts();
    expect(await requestPersistentStorage()).toBe('denied');
    expect(getToasts()).toHaveLength(0);
  });

  it('can stay silent, and reports browsers without the API', async () => {
    stubStorage({ persisted: async () => false, persist: async () => false });
    expect(await requestPersistentStorage({ warn: false })).toBe('denied');
    expect(getToasts()).toHaveLength(0);
    stubStorage(undefined);
    expect(await requestPersistentStorage()).toBe('unsupported');
  });
});
