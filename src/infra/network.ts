import { useSyncExternalStore } from 'react';

/**
 * Online / offline status shared by the whole app.
 *
 * Two signals make "online": the browser's `online`/`offline` events (what airplane mode,
 * DevTools and Playwright's `context.setOffline` toggle), and whether the last call to our server
 * got an answer. `navigator.onLine === true` only means "some network" (a captive portal, a dead
 * access point, or a page reloaded while the network is emulated offline all say true), so code
 * that talks to the server reports what happened with `reportServerReachable`.
 *
 * - `isOnline()` / `useOnline()`: worth talking to the server now (and what the UI shows);
 * - `isBrowserOnline()`: the browser has a network at all (worth probing the server);
 * - `onBackOnline(listener)`: the device just came back (flush queues, refresh data).
 */

type Listener = () => void;

let browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine !== false;
let serverReachable = true;
let online = browserOnline;
const statusListeners = new Set<Listener>();
const backOnlineListeners = new Set<Listener>();

function update(): void {
  const next = browserOnline && serverReachable;
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
  window.addEventListener('online', () => {
    browserOnline = true;
    // A fresh network: assume the server can be reached until a call says otherwise.
    serverReachable = true;
    update();
  });
  window.addEventListener('offline', () => {
    browserOnline = false;
    update();
  });
}

/** Whether the app can talk to its server now, as far as it knows. */
export function isOnline(): boolean {
  return online;
}

/** Whether the browser has any network (the server may still be unreachable). */
export function isBrowserOnline(): boolean {
  return browserOnline;
}

/**
 * Tells the app whether a call to the server got an answer (any HTTP status) or failed at the
 * network level. A success after failures counts as "back online".
 */
export function reportServerReachable(reachable: boolean): void {
  serverReachable = reachable;
  update();
}

/** Whether an error means "the server could not be reached" (not an answer from the server). */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) return true; // fetch's "Failed to fetch" / "Load failed"
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NetworkError' || name === 'TimeoutError';
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
