import { describe, expect, it, vi } from 'vitest';

import { preparePicture, type PictureOps } from '@/infra/picture-upload';

function bytes(signature: number[], size = 64, type = ''): Blob {
  const data = new Uint8Array(size);
  data.set(signature);
  return new Blob([data], { type });
}
const png = () => bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = () => bytes([0xff, 0xd8, 0xff, 0xe0], 64, 'image/jpeg');
const heic = () =>
  bytes([0, 0, 0, 0x18, ...[...'ftypheic'].map((c) => c.charCodeAt(0)), 0, 0, 0, 0]);
const pdf = () =>
  bytes(
    [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)),
    64,
    'image/png',
  );

function ops(webp = true, size = 1000) {
  return {
    heicToJpeg: vi.fn(async () => jpeg()),
    encode: vi.fn(async (_blob: Blob, _side: number, type: string) =>
      type === 'image/webp' && !webp
        ? new Blob([new Uint8Array(size)], { type: 'image/png' })
        : new Blob([new Uint8Array(size)], { type }),
    ),
  } satisfies PictureOps;
}

describe('preparePicture', () => {
  it('re-encodes a PNG or JPEG as WebP, longest side 1600 px by default', async () => {
    const fake = ops();
    const result = await preparePicture(png(), {}, fake);
    expect(result).toMatchObject({ ok: true, picture: { type: 'image/webp', extension: 'webp' } });
    expect(fake.encode).toHaveBeenCalledWith(expect.any(Blob), 1600, 'image/webp', 0.85);
    await preparePicture(jpeg(), { maxSide: 800 }, fake);
    expect(fake.encode).toHaveBeenLastCalledWith(expect.any(Blob), 800, 'image/webp', 0.85);
  });

  it('falls back to JPEG where the browser cannot encode WebP', async () => {
    const fake = ops(false);
    const result = await preparePicture(png(), {}, fake);
    expect(result).toMatchObject({ ok: true, picture: { type: 'image/jpeg', extension: 'jpg' } });
    expect(fake.encode).toHaveBeenCalledTimes(2);
  });

  it('converts HEIC first, and refuses what is not an image by its bytes (whatever it claims)', async () => {
    const fake = ops();
    expect((await preparePicture(heic(), {}, fake)).ok).toBe(true);
    expect(fake.heicToJpeg).toHaveBeenCalledOnce();
    expect(await preparePicture(pdf(), {}, fake)).toEqual({ ok: false, error: 'not_an_image' });
    expect(await preparePicture(new Blob(['hello']), {}, fake)).toEqual({
      ok: false,
      error: 'not_an_image',
    });
  });

  it('refuses a result over the bucket limit, and reports a failed conversion', async () => {
    expect(await preparePicture(png(), {}, ops(true, 6 * 1024 * 1024))).toEqual({
      ok: false,
      error: 'file_too_large',
    });
    const broken = ops();
    broken.encode.mockRejectedValueOnce(new Error('decode failed'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await preparePicture(png(), {}, broken)).toEqual({
      ok: false,
      error: 'conversion_failed',
    });
    warn.mockRestore();
  });
});
