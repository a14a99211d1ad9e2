import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';

import { currentLocale, i18n } from '@/infra/i18n';
import { requestPersistentStorage } from '@/infra/storage-persist';
import { showToast } from '@/infra/toast';
import { LOCALE_MESSAGE } from '@/infra/worker-protocol';

/**
 * The PWA side of the page: service worker registration with an "update available" prompt
 * (workbox-window), and the install prompt. See docs/pwa.md.
 */

/** Chromium's install prompt event (not in the DOM typings). */
type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
};

export type InstallState = {
  /** The browser offered an install prompt that has not been used yet. */
  canInstall: boolean;
  /** The app runs installed (standalone) or was installed during this visit. */
  installed: boolean;
};

/** How often an open app checks for a new version (it also checks when it becomes visible). */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

function runsStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

let deferredPrompt: BeforeInstallPromptEvent | null = null;
let installState: InstallState = { canInstall: false, installed: false };
const listeners = new Set<() => void>();

function setInstallState(next: InstallState) {
  if (next.canInstall === installState.canInstall && next.installed === installState.installed) {
    return;
  }
  installState = next;
  for (const listener of listeners) listener();
}

let installListening = false;

/** Starts listening for the browser's install prompt; call once at start, before rendering. */
export function listenForInstallPrompt(): void {
  if (installListening || typeof window === 'undefined') return;
  installListening = true;
  installState = { canInstall: false, installed: runsStandalone() };
  // The installed app is where offline data matters most: ask to keep it.
  if (installState.installed) void requestPersistentStorage({ warn: false });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferredPrompt = event as BeforeInstallPromptEvent;
    setInstallState({ canInstall: true, installed: false });
  });
  window.addEventListener('appinstalled', () => {
    deferredPrompt = null;
    setInstallState({ canInstall: false, installed: true });
    void requestPersistentStorage();
  });
}

/** Shows the browser's install dialog; resolves with the user's answer. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const prompt = deferredPrompt;
  if (!prompt) return 'unavailable';
  deferredPrompt = null;
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  setInstallState({ canInstall: false, installed: outcome === 'accepted' });
  return outcome;
}

export function getInstallState(): InstallState {
  return installState;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(subscribe, getInstallState, getInstallState);
}

// --- service worker ----------------------------------------------------------------------------

let registration: Promise<Workbox | null> | null = null;

function offerUpdate(wb: Workbox) {
  showToast(i18n._(msg`Une nouvelle version de Kiraa est disponible.`), {
    id: 'sw-update',
    duration: Infinity,
    action: {
      label: i18n._(msg`Recharger`),
      onAction: () => {
        // Reload once the new worker has taken over (not on the first install's claim).
        wb.addEventListener('controlling', () => window.location.reload());
        wb.messageSkipWaiting();
      },
    },
  });
}

/**
 * Tells the worker that now controls the page which car pictures the page already showed (they
 * loaded without it): it keeps them for offline (src/infra/picture-urls.ts).
 */
async function handOverPictures(): Promise<void> {
  const [{ shownCarPictures }, { CACHE_PICTURES_MESSAGE }] = await Promise.all([
    import('@/infra/picture-urls'),
    import('@/infra/worker-protocol'),
  ]);
  const loaded = performance
    .getEntriesByType('resource')
    .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'img')
    .map((entry) => entry.name);
  const shown = Array.from(document.images, (img) => img.currentSrc || img.src);
  const urls = shownCarPictures([...loaded, ...shown], window.location.origin);
  if (urls.length > 0) {
    navigator.serviceWorker.controller?.postMessage({ type: CACHE_PICTURES_MESSAGE, urls });
  }
}

/**
 * Tells the worker that controls the page the app's language: it answers the next navigations
 * with that language's document (its first screen only, src/infra/shell-document.ts).
 */
function tellLocale(): void {
  navigator.serviceWorker.controller?.postMessage({
    type: LOCALE_MESSAGE,
    locale: currentLocale(),
  });
}

/**
 * Registers the service worker (production builds only). Call it after the first render: the
 * worker then precaches the shell without competing with the page's own requests.
 */
export function registerServiceWorker(): Promise<Workbox | null> {
  registration ??= (async () => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null;
    const { Workbox } = await import('workbox-window');
    const wb = new Workbox(`${import.meta.env.BASE_URL}sw.js`, {
      scope: import.meta.env.BASE_URL,
    });
    wb.addEventListener('waiting', () => offerUpdate(wb));
    // The first visit: pictures shown before the worker controls the page are handed to it.
    if (!navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener('controllerchange', handOverPictures, {
        once: true,
      });
    }
    // Its language, now and at each switch (and to each new worker that takes over).
    tellLocale();
    navigator.serviceWorker.addEventListener('controllerchange', tellLocale);
    i18n.on('change', tellLocale);
    try {
      await wb.register();
    } catch (error) {
      console.warn('pwa: service worker registration failed', error);
      return null;
    }
    // Every hour while visible, and each time the app comes back to the foreground online (the
    // loop loads here, after the first screen: the entry stays without it).
    const { startPeriodic } = await import('@/infra/periodic');
    startPeriodic({
      run: () => wb.update().catch(() => undefined),
      intervalMs: UPDATE_CHECK_INTERVAL_MS,
      firstRun: 'later',
      minGapMs: 0,
      retryMs: null,
    });
    return wb;
  })();
  return registration;
}
