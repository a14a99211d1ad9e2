/**
 * What this browser can do to tell the traveller about their booking when the app is not on
 * screen (docs/pwa.md, "Push and background checks"), all feature-detected: Web Push (with the
 * VAPID public key of the build), the app badge, Background Sync and Periodic Background Sync.
 * Nothing here asks for permission by itself: `requestPushPermission()` is called from a button.
 */
import { NEWS_CHECK_TAG } from '@/infra/worker-protocol';

/** localStorage: the person said "not now" (or the browser said no): never asked again unasked. */
export const PUSH_DECLINED_KEY = 'push.declined';
/** How often an installed app may be woken to check (the browser decides; Chromium only). */
export const PERIODIC_CHECK_MS = 60 * 60 * 1000;

/** The build's VAPID public key (`VITE_VAPID_PUBLIC_KEY`), or null when push is not set up. */
export function vapidPublicKey(): string | null {
  const key = import.meta.env.VITE_VAPID_PUBLIC_KEY;
  return typeof key === 'string' && /^[A-Za-z0-9_-]{80,90}$/.test(key) ? key : null;
}

/** iPhone and iPad browsers (all WebKit): Web Push only for apps added to the Home Screen. */
export function isIos(): boolean {
  if (typeof navigator === 'undefined') return false;
  const ua = navigator.userAgent;
  return (
    /iPad|iPhone|iPod/.test(ua) ||
    (/Macintosh/.test(ua) &&
      (navigator as Navigator & { maxTouchPoints?: number }).maxTouchPoints > 1)
  );
}

function runsStandalone(): boolean {
  return (
    (typeof window !== 'undefined' && window.matchMedia?.('(display-mode: standalone)').matches) ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/**
 * - `supported`: this browser can receive pushes;
 * - `needs-home-screen`: iOS/iPadOS, not opened from the Home Screen (push needs that);
 * - `unsupported`: no Push API, no service worker, or no key in this build.
 */
export type PushSupport = 'supported' | 'needs-home-screen' | 'unsupported';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return 'unsupported';
  if (isIos() && !runsStandalone()) return 'needs-home-screen';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return vapidPublicKey() ? 'supported' : 'unsupported';
}

/** The browser's notification permission ('default' until asked), or 'unsupported'. */
export function pushPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function pushDeclined(): boolean {
  try {
    return localStorage.getItem(PUSH_DECLINED_KEY) !== null;
  } catch {
    return false;
  }
}

export function rememberPushDeclined(): void {
  try {
    localStorage.setItem(PUSH_DECLINED_KEY, new Date().toISOString());
  } catch {
    // Private mode: asked again next visit, never on first load.
  }
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** What the server stores of a subscription. */
export type PushKeys = { endpoint: string; p256dh: string; auth: string };

function keysOf(subscription: PushSubscription): PushKeys | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  return json.endpoint && p256dh && auth ? { endpoint: json.endpoint, p256dh, auth } : null;
}

async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  // Resolves once a worker is active; a page without one (dev server) never gets there.
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/**
 * This device's push subscription when permission is granted: the one the browser has, or a new
 * one (a subscription can be dropped silently, so the app renews it at each start). Null when
 * push is unavailable, not allowed, or the push service cannot be reached.
 */
export async function currentPushKeys(): Promise<PushKeys | null> {
  const key = vapidPublicKey();
  if (pushSupport() !== 'supported' || pushPermission() !== 'granted' || !key) return null;
  const registration = await readyRegistration();
  if (!registration) return null;
  try {
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(key),
      }));
    return keysOf(subscription);
  } catch (error) {
    console.warn('[push] no subscription', error);
    return null;
  }
}

/**
 * Asks the browser for permission (call it from a click: browsers refuse otherwise). A refusal
 * is remembered. Resolves with the browser's answer.
 */
export async function requestPushPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (pushSupport() !== 'supported') return 'unsupported';
  const answer = await Notification.requestPermission();
  if (answer !== 'granted') rememberPushDeclined();
  return answer;
}

type SyncRegistration = ServiceWorkerRegistration & {
  sync?: { register: (tag: string) => Promise<void> };
  periodicSync?: {
    register: (tag: string, options: { minInterval: number }) => Promise<void>;
  };
};

/**
 * Background Sync: the worker checks for news as soon as the network is back, even with the app
 * closed (Chromium). Without it the app checks when it opens, comes online or gets the focus.
 */
export async function requestNewsCheckOnReconnect(): Promise<boolean> {
  const registration = (await readyRegistration()) as SyncRegistration | null;
  if (!registration?.sync) return false;
  try {
    await registration.sync.register(NEWS_CHECK_TAG);
    return true;
  } catch {
    return false;
  }
}

/**
 * Periodic Background Sync: an installed app is woken now and then to check (Chromium, for
 * installed apps the browser sees used; Safari and Firefox have none). Resolves whether the
 * browser took it.
 */
export async function registerPeriodicNewsCheck(): Promise<boolean> {
  const registration = (await readyRegistration()) as SyncRegistration | null;
  if (!registration?.periodicSync) return false;
  try {
    const status = await navigator.permissions.query({
      name: 'periodic-background-sync' as PermissionName,
    });
    if (status.state !== 'granted') return false;
    await registration.periodicSync.register(NEWS_CHECK_TAG, { minInterval: PERIODIC_CHECK_MS });
    return true;
  } catch {
    return false;
  }
}
