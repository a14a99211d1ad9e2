import { useState } from 'react';

import { cn } from '@/ui/cn';
import { CarIcon } from '@/ui/icons';

/**
 * A car's picture in a reserved 16:10 box, lazy. With no picture, or one that cannot load
 * (offline and never cached), a drawn car instead of a broken image. `alt` '' makes it decorative.
 */
export function CarPicture({
  src,
  alt,
  className,
}: {
  src: string | undefined;
  alt: string;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const box = cn('aspect-[16/10] rounded-lg bg-muted', className);
  if (!src || failed === src) {
    return (
      <div
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        className={cn('flex items-center justify-center text-fg-muted', box)}
      >
        <CarIcon size={32} />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={640}
      height={400}
      loading="lazy"
      decoding="async"
      crossOrigin={/^https?:/.test(src) ? 'anonymous' : undefined}
      onError={() => setFailed(src)}
      className={cn('object-cover', box)}
    />
  );
}
