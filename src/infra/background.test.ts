import { describe, expect, it, vi } from 'vitest';

describe('named tasks', () => {
  it('start once, whether asked for before or after they are defined', async () => {
    vi.resetModules();
    const background = await import('@/infra/background');
    const outbox = vi.fn();
    const catalogue = vi.fn();
    background.keepRunning('outbox');
    expect(outbox).not.toHaveBeenCalled();
    background.defineTask('outbox', outbox);
    background.defineTask('catalogue', catalogue);
    expect(outbox).toHaveBeenCalledTimes(1);
    expect(catalogue).not.toHaveBeenCalled();
    background.startBackground(['outbox', 'catalogue']);
    background.keepRunning('catalogue');
    expect(outbox).toHaveBeenCalledTimes(1);
    expect(catalogue).toHaveBeenCalledTimes(1);
  });
});
