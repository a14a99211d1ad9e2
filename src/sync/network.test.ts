import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { isOnline, onBackOnline, subscribeOnline, useOnline } from '@/sync/network';

const goOffline = () => window.dispatchEvent(new Event('offline'));
const goOnline = () => window.dispatchEvent(new Event('online'));

describe('network status', () => {
  it('follows the browser’s online and offline events', () => {
    goOffline();
    expect(isOnline()).toBe(false);
    goOnline();
    expect(isOnline()).toBe(true);
  });

  it('fires "back online" only on an offline → online transition', () => {
    goOnline();
    const listener = vi.fn();
    const off = onBackOnline(listener);
    goOnline(); // already online: not a return
    expect(listener).not.toHaveBeenCalled();
    goOffline();
    expect(listener).not.toHaveBeenCalled();
    goOnline();
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    goOffline();
    goOnline();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps calling other listeners when one throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    goOffline();
    const good = vi.fn();
    const offBad = onBackOnline(() => {
      throw new Error('boom');
    });
    const offGood = onBackOnline(good);
    goOnline();
    expect(good).toHaveBeenCalledTimes(1);
    offBad();
    offGood();
    error.mockRestore();
  });

  it('notifies status subscribers and re-renders useOnline', () => {
    goOnline();
    const listener = vi.fn();
    const off = subscribeOnline(listener);
    const { result } = renderHook(() => useOnline());
    expect(result.current).toBe(true);
    act(goOffline);
    expect(result.current).toBe(false);
    act(goOnline);
    expect(result.current).toBe(true);
    expect(listener).toHaveBeenCalledTimes(2);
    off();
  });
});
