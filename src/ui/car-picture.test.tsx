import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CarPicture } from '@/ui/car-picture';

const i18n = setupI18n();

function renderPicture(props: Parameters<typeof CarPicture>[0]) {
  return render(
    <I18nProvider i18n={i18n}>
      <CarPicture {...props} />
    </I18nProvider>,
  );
}

describe('CarPicture', () => {
  beforeEach(async () => {
    const { messages } = (await import('../locales/en/core.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'en', messages });
  });
  afterEach(cleanup);

  it('shows the picture while it loads', () => {
    renderPicture({ src: '/cars/symbol-1.webp', alt: 'Renault Symbol, main view' });
    expect(screen.getByRole('img', { name: 'Renault Symbol, main view' }).tagName).toBe('IMG');
  });

  it('puts the placeholder in place of a picture that cannot load (offline, never cached)', () => {
    renderPicture({ src: '/cars/symbol-1.webp', alt: 'Renault Symbol, main view', iconSize: 48 });
    fireEvent.error(screen.getByRole('img'));
    const placeholder = screen.getByRole('img', {
      name: 'Renault Symbol, main view (photo unavailable)',
    });
    expect(placeholder.tagName).toBe('DIV');
    expect(placeholder.textContent).toBe('Photo unavailable');
    expect(document.querySelector('img')).toBeNull();
  });

  it('keeps a decorative picture out of the accessibility tree', () => {
    renderPicture({ src: undefined, alt: '' });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByTestId('car-picture-placeholder').getAttribute('aria-hidden')).toBe('true');
    // Small boxes (thumbnails, list items) show the drawn car only.
    expect(screen.getByTestId('car-picture-placeholder').textContent).toBe('');
  });
});
