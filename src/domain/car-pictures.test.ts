import { describe, expect, it } from 'vitest';

import {
  carPictureEntry,
  carPictureObject,
  makeCover,
  movePicture,
  pictureUrl,
} from '@/domain/car-pictures';

describe('car pictures', () => {
  it('stores an uploaded picture as the bucket’s public path and finds its object again', () => {
    const entry = carPictureEntry('c1/a.webp');
    expect(entry).toBe('/storage/v1/object/public/cars/c1/a.webp');
    expect(carPictureObject(entry)).toBe('c1/a.webp');
    expect(carPictureObject('/cars/clio-1.svg')).toBeNull();
  });

  it('puts the API’s address before uploaded pictures only', () => {
    const entry = carPictureEntry('c1/a.webp');
    expect(pictureUrl(entry, 'https://x.supabase.co/')).toBe(
      'https://x.supabase.co/storage/v1/object/public/cars/c1/a.webp',
    );
    expect(pictureUrl('/cars/clio-1.svg', 'https://x.supabase.co')).toBe('/cars/clio-1.svg');
    expect(pictureUrl('https://cdn.example/p.webp', 'http://localhost:54321')).toBe(
      'https://cdn.example/p.webp',
    );
  });

  it('moves a picture up and down, clamped at the ends, and makes one the cover', () => {
    expect(movePicture(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(movePicture(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(movePicture(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(movePicture(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(movePicture(['a', 'b', 'c'], 5, 1)).toEqual(['a', 'b', 'c']);
    expect(makeCover(['a', 'b', 'c'], 2)).toEqual(['c', 'a', 'b']);
    expect(makeCover(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
  });
});
