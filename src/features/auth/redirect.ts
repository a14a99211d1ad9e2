/** Where a signed-in user lands when nothing else is asked (docs/product.md §2: the authenticated entry). */
export const AUTHENTICATED_ENTRY = '/home';
/** Where a signed-out user lands after sign-out (docs/product.md §2: the unauthenticated entry). */
export const UNAUTHENTICATED_ENTRY = '/sign-in';

const AUTH_PAGES = ['/sign-in', '/sign-up', '/forgot-password', '/reset-password'];

/**
 * The page to open after sign-in or sign-up: `redirectUrl` from the query when it is a path of
 * this app (never another site: `//evil.example`, `https://…` and `/\evil` are refused, so the
 * parameter cannot be used for phishing), else /home. An auth page is never a destination.
 */
export function redirectTarget(search: string | URLSearchParams): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const wanted = params.get('redirectUrl');
  if (!wanted || !wanted.startsWith('/') || wanted.startsWith('//') || wanted.includes('\\')) {
    return AUTHENTICATED_ENTRY;
  }
  // Resolve against a dummy origin: anything that leaves it is not a path of ours.
  const url = new URL(wanted, 'https://kiraa.invalid');
  if (url.origin !== 'https://kiraa.invalid') return AUTHENTICATED_ENTRY;
  if (AUTH_PAGES.includes(url.pathname)) return AUTHENTICATED_ENTRY;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Keeps `redirectUrl` when moving between the auth pages (sign-in ⇄ sign-up). */
export function withRedirect(path: string, search: string | URLSearchParams): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const wanted = params.get('redirectUrl');
  return wanted ? `${path}?${new URLSearchParams({ redirectUrl: wanted }).toString()}` : path;
}
