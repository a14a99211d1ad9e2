import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { activateLocale, defaultLocale, i18n } from '@/lib/i18n';

import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

await activateLocale(defaultLocale);
createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <App />
    </I18nProvider>
  </StrictMode>,
);
