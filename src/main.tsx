import { I18nProvider } from '@lingui/react';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { routes } from '@/app/routes';
import { preloadScreen } from '@/app/screens';
import { startSession, whenSignedIn } from '@/app/session';
import { localeDirection } from '@/domain/locale';
import { afterFirstScreen } from '@/infra/first-screen';
import { activateLocale, i18n, initialLocale } from '@/infra/i18n';
import { listenForInstallPrompt, registerServiceWorker } from '@/infra/pwa';
import { applyTheme, getTheme, updateTheme } from '@/infra/theme';
import { CATALOGUE_ROUTE } from '@/sync/catalogue-prefetch';

import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// index.html already put the theme and the direction on <html> before the first paint.
listenForInstallPrompt();
const locale = initialLocale();
applyTheme(getTheme());
if (getTheme().direction !== localeDirection(locale)) {
  updateTheme({ direction: localeDirection(locale) });
}
// The catalogue's screens show the device's catalogue: there its sync starts with the app, not
// after the first render (a first visit waits for it; index.html already started its download:
// src/sync/catalogue-prefetch.ts).
if (CATALOGUE_ROUTE.test(window.location.pathname)) {
  void import('@/sync/sync-scheduler').then((sync) => sync.startCatalogueScheduler());
}
// The first screen's code and the catalogs load together; the app renders once both are here.
// (Not a top-level await: the screens import the shell's modules, which must finish evaluating.)
void Promise.all([activateLocale(locale), preloadScreen(routes, window.location.pathname)]).then(
  () => {
    // A transition: React renders the first screen in slices and keeps the main thread free.
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <I18nProvider i18n={i18n}>
            <App />
          </I18nProvider>
        </StrictMode>,
      ),
    );
    // Off the critical path: the session (supabase-js) when this device has one, at once; the
    // rest (startBackgroundWork) once the first screen has painted and the main thread is idle,
    // so its code never competes with the first screen.
    startSession();
    void afterFirstScreen().then(() => whenIdleAfterLoad(startBackgroundWork));
  },
);

function whenIdleAfterLoad(task: () => void) {
  const idle = () => {
    // Safari has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(task, { timeout: 2000 });
    } else {
      setTimeout(task, 200);
    }
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
function startSyncEngine() {
  void import('@/sync/sync-engine').then((engine) => engine.startSyncEngine());
}
function startBackgroundWork() {
  // The outbox's sync engine (src/sync/sync-engine.ts: flushes on start, on `online`, when
  // visible; pulls the user's bookings) when there is work for it: writes waiting in the outbox,
  // or a signed-in user (now, or after signing in on this page). The booking screens start it
  // themselves. A first visit never loads it (supabase-js, zod, XState: ≈ 100 KB gzip).
  whenSignedIn(startSyncEngine);
  void import('@/infra/db')
    .then(({ db }) => db.outbox.count())
    .then((queued) => queued > 0 && startSyncEngine());
  // The catalogue stays fresh whatever screen the app was opened on (the catalogue screens start
  // it at once; it is idempotent).
  void import('@/sync/sync-scheduler').then((sync) => sync.startCatalogueScheduler());
  void registerServiceWorker();
}
