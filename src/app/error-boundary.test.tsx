import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AppErrorBoundary, describeRouteError, RouteErrorBoundary } from '@/app/error-boundary';
import { activateLocale, i18n } from '@/infra/i18n';

function Boom(): never {
  throw new Error('kaboom');
}

function Gone(): never {
  throw new Response('gone', { status: 404, statusText: 'Not Found' });
}

function renderRoutes(path: string) {
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Link to="/ok">go</Link>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/boom" element={<Boom />} />
            <Route path="/gone" element={<Gone />} />
            <Route path="/ok" element={<p>ok</p>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>
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

  it('the route fallback shows the message of a thrown error', () => {
    renderRoutes('/boom');
    expect(screen.getByRole('heading').textContent).toBe('Unexpected Application Error!');
    expect(screen.getByText('kaboom')).toBeTruthy();
  });

  it('the route fallback shows the status and status text of a response', () => {
    renderRoutes('/gone');
    expect(screen.getByTestId('route-error-status').textContent).toBe('404 Not Found');
  });

  it('navigating to another page leaves the error behind', () => {
    renderRoutes('/boom');
    fireEvent.click(screen.getByRole('link', { name: 'go' }));
    expect(screen.getByText('ok')).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('describes errors of every shape', () => {
    expect(describeRouteError(new Error('x'))).toEqual({ detail: 'x' });
    expect(describeRouteError('plain')).toEqual({ detail: 'plain' });
    expect(describeRouteError(null)).toEqual({ detail: '' });
  });
});
