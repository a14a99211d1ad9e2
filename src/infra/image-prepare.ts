/**
 * Gets a licence or flight document ready to upload, on the device: the type is read from the
 * bytes (src/domain/file-sniff.ts, the same checks as the storage server), phone photos are made to
 * fit the 5 MB limit — HEIC/HEIF converted to JPEG, large JPEG/PNG/WebP re-encoded smaller — and
 * anything else is refused with the spec's messages ('file too large', 'unsupported file type').
 *
 * The HEIC decoder (libheif, ~3 MB) is imported only when a HEIC file is chosen, so it never
 * weighs on the first screens.
 */
import { sniffFileType, FILE_SNIFF_BYTES } from '@/domain/file-sniff';
import { LIMITS } from '@/domain/limits';

export const MAX_UPLOAD_BYTES = LIMITS.uploadBytes;
/** What the buckets accept (docs/database.md). */
export const UPLOAD_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
/** What the file picker offers: the upload types, plus HEIC/HEIF which we convert. */
export const PICKER_ACCEPT = [...UPLOAD_TYPES, 'image/heic', 'image/heif', '.heic', '.heif'].join(
  ',',
);

const EXTENSIONS: Record<UploadType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export type PreparedFile = {
  blob: Blob;
  /** The name shown to the user (its extension follows the real type). */
  name: string;
  type: UploadType;
  size: number;
  /** True when the device converted or compressed it. */
  transformed: boolean;
};

export type PrepareError = 'file_too_large' | 'unsupported_file_type' | 'conversion_failed';

export type PrepareResult = { ok: true; file: PreparedFile } | { ok: false; error: PrepareError };

/** Image operations, injectable so the logic is tested without a canvas or libheif. */
export type ImageOps = {
  heicToJpeg(blob: Blob): Promise<Blob>;
  /** Re-encodes as JPEG, longest side at most `maxSide` pixels. */
  reencodeJpeg(blob: Blob, maxSide: number, quality: number): Promise<Blob>;
};

export function extensionOf(type: UploadType): string {
  return EXTENSIONS[type];
}

function renamed(name: string, type: UploadType): string {
  const base = name.replace(/\.[^./\\]+$/, '') || 'document';
  return `${base}.${EXTENSIONS[type]}`;
}

async function head(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, FILE_SNIFF_BYTES).arrayBuffer());
}

/** Tries smaller sizes and qualities until the JPEG fits. */
async function shrink(blob: Blob, ops: ImageOps): Promise<Blob | null> {
  const attempts: [number, number][] = [
    [4096, 0.9],
    [3072, 0.85],
    [2560, 0.8],
    [2048, 0.75],
    [1600, 0.7],
  ];
  for (const [side, quality] of attempts) {
    const out = await ops.reencodeJpeg(blob, side, quality);
    if (out.size <= MAX_UPLOAD_BYTES) return out;
  }
  return null;
}

export async function prepareUpload(
  file: Blob,
  name: string,
  ops: ImageOps = browserImageOps,
): Promise<PrepareResult> {
  const detected = sniffFileType(await head(file));
  const mime = detected?.mime ?? '';
  try {
    if (mime === 'image/heic' || mime === 'image/heif') {
      let jpeg = await ops.heicToJpeg(file);
      if (jpeg.size > MAX_UPLOAD_BYTES) {
        const smaller = await shrink(jpeg, ops);
        if (!smaller) return { ok: false, error: 'file_too_large' };
        jpeg = smaller;
      }
      return {
        ok: true,
        file: {
          blob: jpeg,
          name: renamed(name, 'image/jpeg'),
          type: 'image/jpeg',
          size: jpeg.size,
          transformed: true,
        },
      };
    }
    if (!(UPLOAD_TYPES as readonly string[]).includes(mime)) {
      return { ok: false, error: 'unsupported_file_type' };
    }
    const type = mime as UploadType;
    if (file.size <= MAX_UPLOAD_BYTES) {
      const blob = file.type === type ? file : new Blob([file], { type });
      return {
        ok: true,
        file: { blob, name: renamed(name, type), type, size: file.size, transformed: false },
      };
    }
    if (type === 'application/pdf') return { ok: false, error: 'file_too_large' };
    const smaller = await shrink(file, ops);
    if (!smaller) return { ok: false, error: 'file_too_large' };
    return {
      ok: true,
      file: {
        blob: smaller,
        name: renamed(name, 'image/jpeg'),
        type: 'image/jpeg',
        size: smaller.size,
        transformed: true,
      },
    };
  } catch (error) {
    console.warn('[image-prepare] could not convert the file', error);
    return { ok: false, error: 'conversion_failed' };
  }
}

/**
 * Draws `blob` with its longest side at most `maxSide` px and encodes it as `type` (a browser
 * that cannot encode `type` answers PNG: callers read the blob's type). An OffscreenCanvas where
 * there is one, else a canvas element.
 */
export async function drawScaled(
  blob: Blob,
  maxSide: number,
  type: string,
  quality: number,
): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  try {
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    if (typeof OffscreenCanvas !== 'undefined') {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      ctx.drawImage(bitmap, 0, 0, width, height);
      return await canvas.convertToBlob({ type, quality });
    }
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    ctx.drawImage(bitmap, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (out) => (out ? resolve(out) : reject(new Error('toBlob failed'))),
        type,
        quality,
      ),
    );
  } finally {
    bitmap.close();
  }
}

/** The browser's implementation: libheif (lazy) for HEIC, a canvas for re-encoding. */
export const browserImageOps: ImageOps = {
  async heicToJpeg(blob) {
    const { heicTo } = await import('heic-to/csp');
    return heicTo({ blob, type: 'image/jpeg', quality: 0.9 });
  },
  reencodeJpeg: (blob, maxSide, quality) => drawScaled(blob, maxSide, 'image/jpeg', quality),
};
