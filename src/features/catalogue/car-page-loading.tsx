import { Trans } from '@lingui/react/macro';
import { useLayoutEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { ChevronStartIcon } from '@/ui/icons';
import { PageSpinner } from '@/ui/spinner';

import { freeCarsHref } from '@/features/catalogue/car-links';
import { filterParams, wallClockToMs } from '@/features/catalogue/filters';

/** The global where index.html leaves a car page's photo (src/sync/catalogue-prefetch.ts). */
type WithCarPhoto = { __kiraaCarPhoto?: { slug: string; image: HTMLImageElement } };

/**
 * On a first visit to a car's page, the photo index.html started (and drew, before the app's code
 * arrived) as soon as the prefetched catalogue named the car; null for another car or none. The
 * page shows it where its gallery will be while the catalogue is stored (car-details-page.tsx).
 */
function firstCarPhoto(slug: string): HTMLImageElement | null {
  const drawn = (globalThis as WithCarPhoto).__kiraaCarPhoto;
  return drawn?.slug === slug ? drawn.image : null;
}

/** The page's own gallery is on screen: the early photo is done with. */
export function releaseFirstCarPhoto(): void {
  delete (globalThis as WithCarPhoto).__kiraaCarPhoto;
}

/** The dates and pick-up place a car's page was opened with (from the list's filters). */
export function useOpenedWith() {
  const [params] = useSearchParams();
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return wallClockToMs(value) ? value : '';
  };
  return {
    start: date(filterParams.start),
    end: date(filterParams.end),
    pickup: params.get(filterParams.pickup) ?? '',
  };
}

/** "All cars", back to the list with the dates and place chosen. */
export function BackToCars({ start, end, pickup }: { start: string; end: string; pickup: string }) {
  return (
    <Link
      to={freeCarsHref(start, end, pickup)}
      className="inline-flex items-center gap-1 self-start text-sm font-medium text-primary-text hover:underline"
    >
      <ChevronStartIcon size={16} />
      <Trans>Toutes les voitures</Trans>
    </Link>
  );
}

/**
 * The page while the device's catalogue is read, or on a first visit stored: the spinner or, when
 * index.html already shows this car's photo (src/sync/catalogue-prefetch.ts), that very photo
 * where the gallery will show it, under the "all cars" link and beside the spinner. Moved into the
 * page before the browser paints, it never blinks out; the gallery's own photo (the same download)
 * replaces it.
 */
export function CarLoading({ slug }: { slug: string }) {
  const openedWith = useOpenedWith();
  const [photo] = useState(() => firstCarPhoto(slug));
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (photo) slot.current?.append(photo);
  }, [photo]);
  if (!photo) return <PageSpinner />;
  return (
    <div className="flex flex-col gap-8">
      <BackToCars {...openedWith} />
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div ref={slot} aria-hidden="true" className="min-w-0" data-testid="car-photo-early" />
        <PageSpinner />
      </div>
    </div>
  );
}
