import { I18nProvider } from '@lingui/react';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { defineBackgroundTasks, startBackgroundWork } from '@/app/background-tasks';
import { routes } from '@/app/routes';
import { firstScreenReady } from '@/app/screens';
import { startSession } from '@/infra/session-view';
import { localeDirection } from '@/domain/locale';
import { afterFirstScreen } from '@/infra/first-screen';
import { activateLocale, i18n, initialLocale } from '@/infra/i18n';
import { keepRunning } from '@/infra/background';
import { listenForInstallPrompt } from '@/infra/pwa';
import { applyTheme, followSystemMode, getTheme, updateTheme } from '@/infra/theme';
import { CATALOGUE_ROUTE } from '@/sync/catalogue-prefetch';

import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// index.html already put the theme and the direction on <html> before the first paint.
listenForInstallPrompt();
const locale = initialLocale();
applyTheme(getTheme());
followSystemMode();
if (getTheme().direction !== localeDirection(locale)) {
  updateTheme({ direction: localeDirection(locale) });
}
// The background tasks (src/app/background-tasks.ts) are defined now and start after the first
// screen. The screens that show cars (/home, /cars…) show the device's catalogue: there its sync
// starts with the app, not after the first render (a first visit waits for it; index.html already
// started its download: src/sync/catalogue-prefetch.ts).
defineBackgroundTasks();
if (CATALOGUE_ROUTE.test(window.location.pathname)) keepRunning('catalogue');
// The first screen's code and the catalogs load together; the app renders once both are here, or
// with the catalogs alone on a screen the shell draws a frame of (the wizard: src/app/routes.tsx).
// (Not a top-level await: the screens import the shell's modules, which must finish evaluating.)
void Promise.all([activateLocale(locale), firstScreenReady(routes, window.location.pathname)]).then(
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
    // background tasks once the first screen has painted and the main thread is idle, so their
    // code never competes with the first screen.
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
