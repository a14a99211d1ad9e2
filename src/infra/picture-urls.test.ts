import { describe, expect, it } from 'vitest';

import { isCarPicture, shownCarPictures } from '@/infra/picture-urls';

const APP = 'https://kiraa.example';

describe('car pictures the worker keeps', () => {
  it('knows the app’s own car pictures and the public cars bucket', () => {
    expect(isCarPicture(new URL(`${APP}/cars/clio-1.webp`), APP)).toBe(true);
    expect(
      isCarPicture(new URL('https://x.supabase.co/storage/v1/object/public/cars/a.jpg'), APP),
    ).toBe(true);
    expect(isCarPicture(new URL(`${APP}/assets/index-1.js`), APP)).toBe(false);
    expect(isCarPicture(new URL(`${APP}/cars/renault-clio`), APP)).toBe(false);
    // Another site's /cars/ file is not ours.
    expect(isCarPicture(new URL('https://other.example/cars/a.webp'), APP)).toBe(false);
  });

  it('keeps the car pictures a page showed, once each, relative URLs resolved', () => {
    expect(
      shownCarPictures(
        ['/cars/a.webp', `${APP}/cars/a.webp`, '', `${APP}/icons/logo.svg`, '/cars/b.avif'],
        APP,
      ),
    ).toEqual([`${APP}/cars/a.webp`, `${APP}/cars/b.avif`]);
  });
});
