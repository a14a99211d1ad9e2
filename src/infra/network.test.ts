import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import {
  isBrowserOnline,
  isNetworkError,
  isOnline,
  onBackOnline,
  reportServerReachable,
  subscribeOnline,
  useOnline,
} from '@/infra/network';

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

  it('is offline when the server cannot be reached, even if the browser says online', () => {
    goOnline();
    const listener = vi.fn();
    const off = onBackOnline(listener);
    reportServerReachable(false);
    expect(isOnline()).toBe(false);
    expect(isBrowserOnline()).toBe(true);
    reportServerReachable(false);
    reportServerReachable(true); // the next call got an answer: back online
    expect(isOnline()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
  });

  it('trusts a new network until a call fails', () => {
    reportServerReachable(false);
    goOffline();
    goOnline();
    expect(isOnline()).toBe(true);
  });

  it('tells network failures from server answers', () => {
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkError(Object.assign(new Error('x'), { name: 'NetworkError' }))).toBe(true);
    expect(isNetworkError(new DOMException('timed out', 'TimeoutError'))).toBe(true);
    expect(isNetworkError(new Error('cars: permission denied'))).toBe(false);
  });
});
