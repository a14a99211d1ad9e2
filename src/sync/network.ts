import { useSyncExternalStore } from 'react';

/**
 * Online / offline status shared by the whole app.
 *
 * The browser's `online` and `offline` events are the source of truth (they are also what
 * Playwright's `context.setOffline` and DevTools toggle). `navigator.onLine === true` only means
 * "some network", so code that talks to the server still handles failures; what this module
 * answers is "is it worth trying now", and "tell me when the network comes back".
 */

type Listener = () => void;

let online = typeof navigator === 'undefined' ? true : navigator.onLine !== false;
const statusListeners = new Set<Listener>();
const backOnlineListeners = new Set<Listener>();

function setOnline(next: boolean): void {
  if (next === online) return;
  online = next;
  for (const listener of [...statusListeners]) listener();
  if (next) {
    for (const listener of [...backOnlineListeners]) {
      try {
        listener();
      } catch (error) {
        console.error('[network] a back-online listener failed', error);
      }
    }
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => setOnline(true));
  window.addEventListener('offline', () => setOnline(false));
}

/** Whether the device currently has a network connection (as far as the browser knows). */
export function isOnline(): boolean {
  return online;
}

/** Calls `listener` on every change of the online status. Returns the unsubscribe function. */
export function subscribeOnline(listener: Listener): () => void {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
}

/**
 * Calls `listener` each time the device goes from offline back to online (the moment to flush
 * queues and refresh data). Returns the unsubscribe function.
 */
export function onBackOnline(listener: Listener): () => void {
  backOnlineListeners.add(listener);
  return () => {
    backOnlineListeners.delete(listener);
  };
}

/** React: the current online status, re-rendering on change. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
}
