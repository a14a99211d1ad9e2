/**
 * A car's pictures (docs/fleet.md, "Pictures"): `cars.images` in order, the first is the cover.
 * An entry is an app path (`/cars/<slug>-1.svg`), an https URL, or a picture uploaded to the
 * public `cars` bucket, stored as the bucket's public path without a host
 * (`/storage/v1/object/public/cars/<car id>/<file>`): the app puts the API's address in front.
 */

/**
 * At most this many pictures per car: `LIMITS.carPictures` (src/domain/limits.ts), written out
 * here because the catalogue's sync imports this module and the limits travel with zod
 * (vite.config.ts); tests/api/limits.test.ts holds the two equal.
 */
export const MAX_CAR_PICTURES = 12;

/** Where the `cars` bucket's public objects are served, on the API's host. */
export const CARS_BUCKET_PUBLIC_PATH = '/storage/v1/object/public/cars/';

/** The stored entry of an object `<car id>/<file>` of the `cars` bucket. */
export function carPictureEntry(objectName: string): string {
  return `${CARS_BUCKET_PUBLIC_PATH}${objectName}`;
}

/** The object name (`<car id>/<file>`) of an uploaded picture's entry, or null for other kinds. */
export function carPictureObject(entry: string): string | null {
  return entry.startsWith(CARS_BUCKET_PUBLIC_PATH)
    ? entry.slice(CARS_BUCKET_PUBLIC_PATH.length)
    : null;
}

/** The URL an <img> loads: an uploaded picture on the API's host, anything else unchanged. */
export function pictureUrl(entry: string, apiUrl: string): string {
  return entry.startsWith(CARS_BUCKET_PUBLIC_PATH)
    ? `${apiUrl.replace(/\/+$/, '')}${entry}`
    : entry;
}

/** The list with the picture at `index` moved by `delta` places (clamped to the ends). */
export function movePicture<T>(list: readonly T[], index: number, delta: number): T[] {
  const next = [...list];
  const target = Math.min(next.length - 1, Math.max(0, index + delta));
  if (index < 0 || index >= next.length || target === index) return next;
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** The list with the picture at `index` first (the cover). */
export function makeCover<T>(list: readonly T[], index: number): T[] {
  return movePicture(list, index, -index);
}
