import { describe, expect, it, vi } from 'vitest';

const catalogue = vi.hoisted(() => ({
  sync: vi.fn(() => Promise.resolve({ ok: true })),
  lastSuccess: null as string | null,
}));
vi.mock('@/sync/catalogue-sync', () => ({
  catalogueSync: { sync: catalogue.sync },
  readCatalogueStatus: () => Promise.resolve({ last_success_at: catalogue.lastSuccess }),
}));

describe('catalogue scheduler', () => {
  it('syncs at once on a first visit, once idle when the catalogue is cached, and only once', async () => {
    vi.useRealTimers();
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => {
      idle = fn;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', vi.fn());

    vi.resetModules();
    const first = await import('@/sync/sync-scheduler');
    first.startCatalogueScheduler();
    first.startCatalogueScheduler();
    await vi.waitFor(() => expect(catalogue.sync).toHaveBeenCalledTimes(1));
    expect(idle).toBeNull();

    catalogue.lastSuccess = '2026-11-22T10:00:00Z';
    vi.resetModules();
    const cached = await import('@/sync/sync-scheduler');
    cached.startCatalogueScheduler();
    await vi.waitFor(() => expect(idle).not.toBeNull());
    expect(catalogue.sync).toHaveBeenCalledTimes(1);
    idle!();
    expect(catalogue.sync).toHaveBeenCalledTimes(2);
    vi.unstubAllGlobals();
  });
});
