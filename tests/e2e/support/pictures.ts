import type { BrowserContext } from '@playwright/test';

import { isCarPicture } from '../../../src/infra/picture-urls.ts';

/**
 * Makes the pictures of the car `slug` ones this device cannot download: from now on every request
 * for them, the page's and the service worker's, fails as a dropped connection does. Offline tests
 * that must see the placeholder call it just before `context.setOffline(true)`: that emulation
 * reaches a service worker's own requests through Playwright's per-worker session, and once in
 * about ten full runs beside another suite the placeholder never came (the picture's request did
 * not fail). Returns how many requests were refused, so a test can check its picture was asked for.
 */
export async function neverDownloaded(
  context: BrowserContext,
  slug: string,
): Promise<() => number> {
  let refused = 0;
  await context.route(
    (url) => url.pathname.includes(`/${slug}`) && isCarPicture(url, url.origin),
    (route) => {
      refused += 1;
      return route.abort('internetdisconnected');
    },
  );
  return () => refused;
}
