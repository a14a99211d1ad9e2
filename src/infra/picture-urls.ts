/**
 * Car pictures and the service worker (src/sw.ts, docs/pwa.md, "Service worker"): which URLs are
 * car pictures it keeps, and which ones this page already showed. On the first visit the first
 * cards and the car page's gallery load before the worker controls the page, so they never pass
 * through its cache; once it takes control the page hands it those URLs (`CACHE_PICTURES_MESSAGE`
 * in src/infra/worker-protocol.ts) and it stores them, so they show offline later.
 */

const carImageFile = /^\/cars\/.+\.(?:avif|webp|jpe?g|png|gif|svg)$/i;
const publicCarsBucket = /\/storage\/v1\/(?:object|render\/image)\/public\/cars\//;

/** A car picture: the app's own /cars/*.webp files, or the public `cars` bucket of Storage. */
export function isCarPicture(url: URL, appOrigin: string): boolean {
  return (
    (url.origin === appOrigin && carImageFile.test(url.pathname)) ||
    publicCarsBucket.test(url.pathname)
  );
}

/** The car pictures among the URLs the page loaded (resource timing) or shows (<img>), once each. */
export function shownCarPictures(urls: Iterable<string>, appOrigin: string): string[] {
  const found = new Set<string>();
  for (const raw of urls) {
    try {
      const url = new URL(raw, appOrigin);
      if (isCarPicture(url, appOrigin)) found.add(url.href);
    } catch {
      // Not a URL (an empty src): nothing to keep.
    }
  }
  return [...found];
}
