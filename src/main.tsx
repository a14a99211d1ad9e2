import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { routes } from '@/app/routes';
import { afterFirstScreen, preloadScreen } from '@/app/screens';
import { startSession } from '@/app/session';
import { activateLocale, i18n, initialLocale, localeDirection } from '@/lib/i18n';
import { listenForInstallPrompt, registerServiceWorker } from '@/lib/pwa';
import { applyTheme, getTheme, updateTheme } from '@/lib/theme';

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
// The first screen's code and the catalogs load together.
preloadScreen(routes, window.location.pathname);
await activateLocale(locale);

createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <App />
    </I18nProvider>
  </StrictMode>,
);

// Off the critical path: the session (supabase-js) when this device has one, at once; the
// outbox's sync engine, the catalogue sync and the service worker once the first screen has
// painted and the main thread is idle, so their code (supabase-js, zod, workbox) never competes
// with the first screen.
startSession();
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
void afterFirstScreen().then(() => whenIdleAfterLoad(startBackgroundWork));
function startBackgroundWork() {
  // The outbox's sync engine: flushes on start, on `online`, when visible (src/sync/sync-engine.ts).
  void import('@/sync/sync-engine').then((engine) => engine.startSyncEngine());
  // The catalogue stays fresh whatever screen the app was opened on (the catalogue screens start
  // it at once; it is idempotent).
  void import('@/sync/sync-scheduler').then((sync) => sync.startCatalogueScheduler());
  void registerServiceWorker();
}
