import { describe, expect, it, vi } from 'vitest';

import { MAX_UPLOAD_BYTES, prepareUpload, type ImageOps } from '@/infra/image-prepare';

const MB = 1024 * 1024;

function bytes(signature: number[], size: number, type = ''): Blob {
  const data = new Uint8Array(size);
  data.set(signature);
  return new Blob([data], { type });
}

const pdf = (size: number) =>
  bytes(
    [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)),
    size,
  );
const jpeg = (size: number) => bytes([0xff, 0xd8, 0xff, 0xe0], size, 'image/jpeg');
const png = (size: number) => bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], size);
const heic = (size: number) =>
  bytes([0, 0, 0, 0x18, ...[...'ftypheic'].map((c) => c.charCodeAt(0)), 0, 0, 0, 0], size);
const exe = (size: number) => bytes([0x4d, 0x5a, 0x90, 0], size, 'application/pdf');

/** Fake image ops: re-encoding divides the size by a factor per attempt. */
function ops(
  shrinkTo: number[] = [3 * MB],
  heicOut = 2 * MB,
): ImageOps & {
  reencodeJpeg: ReturnType<typeof vi.fn>;
  heicToJpeg: ReturnType<typeof vi.fn>;
} {
  const sizes = [...shrinkTo];
  return {
    heicToJpeg: vi.fn(async () => jpeg(heicOut)),
    reencodeJpeg: vi.fn(async () => jpeg(sizes.shift() ?? 10 * MB)),
  };
}

describe('prepareUpload', () => {
  it('keeps a PDF or an image under 5 MB as it is, typed from its bytes', async () => {
    const o = ops();
    const r = await prepareUpload(pdf(100_000), 'permis.PDF', o);
    expect(r).toMatchObject({
      ok: true,
      file: { type: 'application/pdf', name: 'permis.pdf', size: 100_000, transformed: false },
    });
    const p = await prepareUpload(png(MAX_UPLOAD_BYTES), 'photo.jpeg', o);
    expect(p).toMatchObject({ ok: true, file: { type: 'image/png', name: 'photo.png' } });
    expect(p.ok && p.file.blob.type).toBe('image/png');
    expect(o.reencodeJpeg).not.toHaveBeenCalled();
  });

  it('refuses what is not a PDF or an image, whatever its name or declared type', async () => {
    expect(await prepareUpload(exe(1000), 'licence.pdf', ops())).toEqual({
      ok: false,
      error: 'unsupported_file_type',
    });
    expect(await prepareUpload(new Blob(['hello']), 'a.txt', ops())).toEqual({
      ok: false,
      error: 'unsupported_file_type',
    });
  });

  it('refuses a PDF over 5 MB: file too large', async () => {
    expect(await prepareUpload(pdf(MAX_UPLOAD_BYTES + 1), 'big.pdf', ops())).toEqual({
      ok: false,
      error: 'file_too_large',
    });
  });

  it('compresses a large photo until it fits', async () => {
    const o = ops([6 * MB, 4 * MB]);
    const r = await prepareUpload(jpeg(9 * MB), 'IMG_0001.JPG', o);
    expect(r).toMatchObject({
      ok: true,
      file: { type: 'image/jpeg', size: 4 * MB, transformed: true, name: 'IMG_0001.jpg' },
    });
    expect(o.reencodeJpeg).toHaveBeenCalledTimes(2);
    expect(o.reencodeJpeg.mock.calls[1]?.slice(1)).toEqual([3072, 0.85]);
  });

  it('gives up with file too large when even the smallest size does not fit', async () => {
    const o = ops([9 * MB, 9 * MB, 9 * MB, 9 * MB, 9 * MB]);
    expect(await prepareUpload(jpeg(12 * MB), 'x.jpg', o)).toEqual({
      ok: false,
      error: 'file_too_large',
    });
    expect(o.reencodeJpeg).toHaveBeenCalledTimes(5);
  });

  it('converts HEIC to JPEG, and shrinks it if needed', async () => {
    const o = ops([3 * MB], 7 * MB);
    const r = await prepareUpload(heic(4 * MB), 'IMG_0002.HEIC', o);
    expect(o.heicToJpeg).toHaveBeenCalledTimes(1);
    expect(r).toMatchObject({
      ok: true,
      file: { type: 'image/jpeg', name: 'IMG_0002.jpg', size: 3 * MB, transformed: true },
    });
  });

  it('reports a conversion that failed', async () => {
    const o = ops();
    o.heicToJpeg.mockRejectedValueOnce(new Error('libheif: unsupported'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await prepareUpload(heic(1000), 'x.heic', o)).toEqual({
      ok: false,
      error: 'conversion_failed',
    });
    warn.mockRestore();
  });
});
