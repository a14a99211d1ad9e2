import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
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
await activateLocale(locale);

createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <App />
    </I18nProvider>
  </StrictMode>,
);

// Off the critical path: the session (supabase-js) when this device has one, then the worker.
startSession();
// The outbox's sync engine: flushes on start, on `online`, when visible (src/sync/sync-engine.ts).
void import('@/sync/sync-engine').then((engine) => engine.startSyncEngine());
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
