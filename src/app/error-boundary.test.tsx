import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AppErrorBoundary, describeRouteError, RouteErrorPage } from '@/app/error-boundary';
import { activateLocale, i18n } from '@/lib/i18n';

function Boom(): never {
  throw new Error('kaboom');
}

function renderRoute(loader: () => unknown) {
  const router = createMemoryRouter(
    [{ path: '/', loader, element: <p>ok</p>, errorElement: <RouteErrorPage /> }],
    { initialEntries: ['/'] },
  );
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
}

describe('error handling', () => {
  beforeEach(async () => {
    await activateLocale('en');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('the app boundary shows the support message instead of a blank page', () => {
    render(
      <I18nProvider i18n={i18n}>
        <AppErrorBoundary>
          <Boom />
        </AppErrorBoundary>
      </I18nProvider>,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Something went wrong. Please refresh the page or contact support.',
    );
  });

  it('the router fallback shows the status and status text of a response', async () => {
    renderRoute(() => {
      throw data('gone', { status: 404, statusText: 'Not Found' });
    });
    expect((await screen.findByRole('heading')).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByTestId('route-error-status').textContent).toBe('404 Not Found');
  });

  it('the router fallback shows the message of a thrown error', async () => {
    renderRoute(() => {
      throw new Error('Loader failed');
    });
    expect(await screen.findByText('Loader failed')).toBeTruthy();
  });

  it('describes errors of every shape', () => {
    expect(describeRouteError(new Error('x'))).toEqual({ detail: 'x' });
    expect(describeRouteError('plain')).toEqual({ detail: 'plain' });
    expect(describeRouteError(null)).toEqual({ detail: '' });
  });
});
