import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';

import { cn } from '@/ui/cn';
import { CarIcon } from '@/ui/icons';

/** Intrinsic size of the fleet pictures (16:10): the box is reserved before the bytes arrive. */
const IMAGE_WIDTH = 640;
const IMAGE_HEIGHT = 400;

/**
 * A car's picture in a reserved 16:10 box (no layout shift), lazy unless `eager`; `priority` for
 * the page's largest picture (its largest paint): eager, and fetched ahead of other images
 * (`fetchpriority="high"`, docs/performance.md). With no picture, or one that cannot load
 * (offline and never cached), a designed placeholder instead of a broken image: a drawn car of `iconSize` and, in boxes large enough (`iconSize` ≥ 48), the
 * words "Photo indisponible". Named for screen readers after `alt`; `alt` '' makes it decorative.
 */
export function CarPicture({
  src,
  alt,
  eager = false,
  priority = false,
  iconSize = 32,
  className,
}: {
  src: string | undefined;
  alt: string;
  eager?: boolean;
  priority?: boolean;
  iconSize?: number;
  className?: string;
}) {
  const { t } = useLingui();
  const [failed, setFailed] = useState<string | null>(null);
  const box = cn('aspect-[16/10] bg-muted', className);
  if (!src || failed === src) {
    return (
      <div
        role={alt ? 'img' : undefined}
        aria-label={alt ? t`${alt} (photo indisponible)` : undefined}
        aria-hidden={alt ? undefined : true}
        data-testid="car-picture-placeholder"
        className={cn(
          'flex flex-col items-center justify-center gap-1 border border-dashed border-line text-fg-muted',
          box,
        )}
      >
        <CarIcon size={iconSize} />
        {iconSize >= 48 && (
          <span className="px-2 text-center text-xs font-medium">
            <Trans>Photo indisponible</Trans>
          </span>
        )}
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={IMAGE_WIDTH}
      height={IMAGE_HEIGHT}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      // Pictures from the storage bucket are cached by the service worker only with CORS.
      crossOrigin={/^https?:/.test(src) ? 'anonymous' : undefined}
      decoding="async"
      onError={() => setFailed(src)}
      className={cn('object-cover', box)}
    />
  );
}
