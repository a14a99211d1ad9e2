import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RequireAuth, signInPath } from '@/app/guards';
import { activateLocale, i18n } from '@/infra/i18n';
import type { SessionState } from '@/infra/session';
import { dismissAllToasts, getToasts } from '@/infra/toast';

let session: SessionState = { status: 'loading', user: null };
vi.mock('@/infra/session-view', () => ({ useShellSession: () => session }));

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <RequireAuth />,
        children: [{ path: '/mybookings', element: <p>My bookings</p> }],
      },
      {
        element: <RequireAuth authority={['admin']} />,
        children: [{ path: '/staff/bookings', element: <p>Staff</p> }],
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
}

const signedIn = (authority: string[]): SessionState => ({
  status: 'signedIn',
  user: { id: 'u', userId: 'u', avatar: '', userName: '', email: '', authority, metadata: {} },
});

describe('route guard', () => {
  beforeEach(async () => {
    await activateLocale('fr');
    dismissAllToasts();
  });
  afterEach(cleanup);

  it('sends a signed-out visitor to sign-in with the path, and says "please login" for 3 s at the top', async () => {
    session = { status: 'signedOut', user: null };
    renderAt('/mybookings?tab=past');
    expect((await screen.findByTestId('where')).textContent).toBe(
      '/sign-in?redirectUrl=%2Fmybookings%3Ftab%3Dpast',
    );
    expect(getToasts()).toMatchObject([
      { message: 'Veuillez vous connecter', placement: 'top-center', duration: 3000 },
    ]);
  });

  it('waits while the session loads', () => {
    session = { status: 'loading', user: null };
    renderAt('/mybookings');
    expect(screen.getByRole('status').textContent).toBe('Chargement…');
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('lets a signed-in user through', () => {
    session = signedIn(['user']);
    renderAt('/mybookings');
    expect(screen.getByText('My bookings')).toBeTruthy();
  });

  it('sends a user without the authority to /access-denied', async () => {
    session = signedIn(['user']);
    renderAt('/staff/bookings');
    expect((await screen.findByTestId('where')).textContent).toBe('/access-denied');
    cleanup();
    session = signedIn(['admin']);
    renderAt('/staff/bookings');
    expect(screen.getByText('Staff')).toBeTruthy();
  });

  it('encodes the original path in redirectUrl', () => {
    expect(signInPath('/cars/book?car=a b')).toBe(
      '/sign-in?redirectUrl=%2Fcars%2Fbook%3Fcar%3Da+b',
    );
  });
});
