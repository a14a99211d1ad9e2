/**
 * Pictures staff take or pick, ready for a public bucket and uploaded there (docs/fleet.md,
 * "Pictures"). Generic on purpose: the car pictures use it, and so can other photos (pickup and
 * return records) with their own bucket, path and size.
 *
 * - `preparePicture` reads the type from the bytes (src/domain/file-sniff.ts, as the server does):
 *   JPEG, PNG, WebP (and HEIC/HEIF, converted first) only; then draws it on a canvas with its
 *   longest side at most `maxSide` px and encodes WebP (JPEG where the browser cannot encode WebP).
 * - `uploadPicture` stores the bytes at `bucket/path` (no overwrite) with a long cache lifetime:
 *   a picture's name is new each time, so its URL never changes content.
 */
import { FILE_SNIFF_BYTES, sniffFileType } from '@/domain/file-sniff';
import { LIMITS } from '@/domain/limits';
import { browserImageOps, drawScaled } from '@/infra/image-prepare';
import { supabase } from '@/infra/supabase';

export type PictureType = 'image/webp' | 'image/jpeg';
export type PreparedPicture = { blob: Blob; type: PictureType; extension: 'webp' | 'jpg' };
export type PictureError = 'not_an_image' | 'file_too_large' | 'conversion_failed';
export type PictureResult =
  { ok: true; picture: PreparedPicture } | { ok: false; error: PictureError };

/** The canvas work, injectable so the rules are tested without a browser. */
export type PictureOps = {
  heicToJpeg(blob: Blob): Promise<Blob>;
  /** Draws the picture with its longest side at most `maxSide` and encodes it as `type`. */
  encode(blob: Blob, maxSide: number, type: PictureType, quality: number): Promise<Blob>;
};

const INPUT_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export async function preparePicture(
  file: Blob,
  { maxSide = 1600, quality = 0.85 }: { maxSide?: number; quality?: number } = {},
  ops: PictureOps = browserPictureOps,
): Promise<PictureResult> {
  const head = new Uint8Array(await file.slice(0, FILE_SNIFF_BYTES).arrayBuffer());
  const mime = sniffFileType(head)?.mime ?? '';
  const heic = mime === 'image/heic' || mime === 'image/heif';
  if (!heic && !INPUT_TYPES.includes(mime)) return { ok: false, error: 'not_an_image' };
  try {
    const source = heic ? await ops.heicToJpeg(file) : file;
    let blob = await ops.encode(source, maxSide, 'image/webp', quality);
    let type: PictureType = 'image/webp';
    // A browser that cannot encode WebP answers PNG: JPEG is smaller then.
    if (blob.type !== 'image/webp') {
      blob = await ops.encode(source, maxSide, 'image/jpeg', quality);
      type = 'image/jpeg';
    }
    if (blob.size > LIMITS.uploadBytes) return { ok: false, error: 'file_too_large' };
    return { ok: true, picture: { blob, type, extension: type === 'image/webp' ? 'webp' : 'jpg' } };
  } catch (error) {
    console.warn('[picture-upload] could not prepare the picture', error);
    return { ok: false, error: 'conversion_failed' };
  }
}

/** Uploads to `bucket/path`; the storage error's code (`'403'`, `'409'`, `'network'`…) on failure. */
export async function uploadPicture(
  bucket: string,
  path: string,
  picture: PreparedPicture,
): Promise<{ ok: true } | { ok: false; code: string }> {
  try {
    const { error } = await supabase.storage.from(bucket).upload(path, picture.blob, {
      contentType: picture.type,
      cacheControl: '31536000',
      upsert: false,
    });
    if (!error) return { ok: true };
    const code = (error as { statusCode?: string }).statusCode;
    return { ok: false, code: code ?? 'network' };
  } catch {
    return { ok: false, code: 'network' };
  }
}

/** Removes objects of `bucket` (best effort: a leftover file costs storage, not correctness). */
export async function removePictures(bucket: string, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  try {
    await supabase.storage.from(bucket).remove(paths);
  } catch {
    // Offline: the file stays; nothing names it any more.
  }
}

export const browserPictureOps: PictureOps = {
  heicToJpeg: (blob) => browserImageOps.heicToJpeg(blob),
  encode: drawScaled,
};
