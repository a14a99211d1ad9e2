import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { WizardLoadingFrame } from '@/app/frames';
import { activateLocale, i18n } from '@/infra/i18n';

function renderAt(path: string) {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <WizardLoadingFrame />
      </MemoryRouter>
    </I18nProvider>,
  );
}

describe('the wizard’s frame, drawn by the shell before the wizard’s code', () => {
  afterEach(cleanup);
  afterAll(() => activateLocale('fr'));

  // Only the shell's catalog is loaded here (activateLocale): the booking feature's is not.
  it.each([
    ['fr', '/cars/book?car=c1', 'Réserver une voiture'],
    ['en', '/cars/book?car=c1', 'Book a car'],
    ['ar', '/cars/book?car=c1', 'حجز سيارة'],
    ['en', '/cars/book?edit=b1', 'Edit my details'],
    ['ar', '/cars/book?edit=b1', 'تعديل معلوماتي'],
  ] as const)(
    '%s %s: its heading in the shell’s words, and a loading status',
    async (locale, path, heading) => {
      await activateLocale(locale);
      renderAt(path);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(screen.getByRole('status')).toBeTruthy();
    },
  );
});
