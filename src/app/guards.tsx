import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { hasAuthority } from '@/app/navigation';
import { useShellSession } from '@/infra/session-view';
import { showToast, SIGN_IN_TOAST_DURATION } from '@/infra/toast';
import { PageSpinner } from '@/ui/spinner';

/** Where a signed-out visitor goes, with the page they wanted in `redirectUrl` (docs/product.md §2). */
export function signInPath(from: string): string {
  return `/sign-in?${new URLSearchParams({ redirectUrl: from }).toString()}`;
}

function ToSignIn() {
  const { t } = useLingui();
  const location = useLocation();
  useEffect(() => {
    // A stable id: a double render (StrictMode) or a second guard shows one toast, not two.
    showToast(t`Veuillez vous connecter`, {
      id: 'please-login',
      placement: 'top-center',
      duration: SIGN_IN_TOAST_DURATION,
    });
  }, [t]);
  return <Navigate to={signInPath(location.pathname + location.search + location.hash)} replace />;
}

/**
 * Protects the child routes. Signed out → /sign-in?redirectUrl=<path> with "please login" for
 * 3 s at the top; signed in without one of the `authority` roles → /access-denied.
 * An empty `authority` only requires being signed in. The device being offline does not sign
 * anyone out (the session module keeps the stored session), so guarded pages work offline.
 */
export function RequireAuth({
  authority = [],
  deniedTo = '/access-denied',
}: {
  authority?: string[];
  /** Where a signed-in user without the authority goes (the access-denied page itself: /home). */
  deniedTo?: string;
}) {
  const session = useShellSession();
  if (session.status === 'loading') return <PageSpinner />;
  if (session.status === 'signedOut' || !session.user) return <ToSignIn />;
  if (!hasAuthority(authority, session.user.authority)) {
    return <Navigate to={deniedTo} replace />;
  }
  return <Outlet />;
}
