import { useState } from 'react';

import { CarIcon } from '@/features/catalogue/icons';
import { cn } from '@/ui/cn';

/** Intrinsic size of the fleet pictures (16:10): the box is reserved before the bytes arrive. */
export const IMAGE_WIDTH = 640;
export const IMAGE_HEIGHT = 400;

/**
 * A car picture with its box reserved (no layout shift), lazy unless `eager`. Offline, a picture
 * that was never cached falls back to a drawn car instead of a broken image.
 */
export function CarImage({
  src,
  alt,
  eager = false,
  className,
}: {
  src: string | undefined;
  alt: string;
  eager?: boolean;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return (
      <div
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        className={cn('flex items-center justify-center bg-muted text-fg-muted', className)}
      >
        <CarIcon size={48} />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={IMAGE_WIDTH}
      height={IMAGE_HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      // Pictures from the storage bucket are cached by the service worker only with CORS.
      crossOrigin={/^https?:/.test(src) ? 'anonymous' : undefined}
      decoding="async"
      onError={() => setFailed(src)}
      className={cn('bg-muted object-cover', className)}
    />
  );
}
