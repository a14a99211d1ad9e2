import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type KeyboardEvent } from 'react';

import { CarPicture } from '@/ui/car-picture';
import { cn } from '@/ui/cn';
import { ChevronEndIcon, ChevronStartIcon, ExpandIcon } from '@/ui/icons';
import { useSwipe } from '@/ui/swipe';

import { CarPhotoViewer } from '@/features/catalogue/car-photo-viewer';

/** Steps of the arrow keys in reading order; mirrored when the page is right-to-left. */
const arrowSteps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };

const overlayButtonClassName =
  'absolute flex size-10 items-center justify-center rounded-full bg-surface/85 text-fg shadow focus-visible:outline-2 focus-visible:outline-ring';

/**
 * The pictures of a car: one large, "n / N" under it, thumbnails to choose. A finger swipe
 * moves between pictures (the next one comes from the end of the line: from the left in Arabic,
 * src/ui/swipe.ts); so do the previous/next buttons, and the keyboard: Tab to the selected
 * thumbnail, then ←/→ (mirrored in Arabic), Home and End. "Full screen" opens the pictures in a
 * dialog (car-photo-viewer.tsx). Every picture has a text alternative; the position is announced
 * politely.
 */
export function CarGallery({ name, images }: { name: string; images: readonly string[] }) {
  const { t } = useLingui();
  const [index, setIndex] = useState(0);
  const [full, setFull] = useState(false);
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const count = images.length;
  const current = Math.min(index, Math.max(0, count - 1));
  const position = current + 1;
  const go = (next: number) => setIndex((next + count) % count);
  const swipe = useSwipe((step) => go(current + step));
  const altOf = (i: number) => {
    if (count <= 1) return t`${name}, vue principale`;
    const n = i + 1;
    return t`${name}, photo ${n} sur ${count}`;
  };

  function onThumbKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    let next: number;
    if (event.key in arrowSteps) next = current + arrowSteps[event.key]! * (rtl ? -1 : 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = count - 1;
    else return;
    event.preventDefault();
    next = (next + count) % count;
    setIndex(next);
    thumbs.current[next]?.focus();
  }

  const viewer = count > 0 && (
    <CarPhotoViewer
      open={full}
      onClose={() => setFull(false)}
      name={name}
      images={images}
      index={current}
      onIndex={setIndex}
      altOf={altOf}
    />
  );
  // Under the picture, not over it: at 200 % text three round buttons do not fit on a phone's
  // picture without covering one another.
  const fullScreenButton = count > 0 && (
    <button
      type="button"
      onClick={() => setFull(true)}
      aria-haspopup="dialog"
      className="inline-flex min-h-10 items-center gap-2 rounded-lg px-2 text-sm font-medium text-primary-text hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
      data-testid="gallery-full-screen"
    >
      <ExpandIcon size={18} aria-hidden="true" />
      <Trans>Voir les photos en plein écran</Trans>
    </button>
  );

  if (count <= 1) {
    return (
      <div className="relative">
        <CarPicture
          src={images[0]}
          alt={altOf(0)}
          priority
          iconSize={48}
          className="w-full rounded-xl"
        />
        <div className="flex justify-end pt-2">{fullScreenButton}</div>
        {viewer}
      </div>
    );
  }

  return (
    <section aria-label={t`Photos de ${name}`} className="flex flex-col gap-3">
      <div
        {...swipe}
        onDragStart={(event) => event.preventDefault()}
        className="relative touch-pan-y select-none"
        data-testid="gallery-stage"
      >
        <CarPicture
          src={images[current]}
          alt={altOf(current)}
          priority
          iconSize={48}
          className="w-full rounded-xl"
        />
        <p className="sr-only" aria-live="polite">
          <Trans>
            Photo {position} sur {count}
          </Trans>
        </p>
        <button
          type="button"
          onClick={() => go(current - 1)}
          aria-label={t`Photo précédente`}
          className={cn(overlayButtonClassName, 'inset-y-0 start-2 my-auto')}
        >
          <ChevronStartIcon />
        </button>
        <button
          type="button"
          onClick={() => go(current + 1)}
          aria-label={t`Photo suivante`}
          className={cn(overlayButtonClassName, 'inset-y-0 end-2 my-auto')}
        >
          <ChevronEndIcon />
        </button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p
          aria-hidden="true"
          className="text-sm font-medium tabular-nums"
          data-testid="gallery-position"
        >
          <bdi dir="ltr">
            {position} / {count}
          </bdi>
        </p>
        {fullScreenButton}
      </div>
      <ul className="flex gap-2 overflow-x-auto p-1">
        {images.map((src, i) => (
          <li key={`${src}-${i}`} className="shrink-0">
            <button
              type="button"
              ref={(element) => {
                thumbs.current[i] = element;
              }}
              // One tab stop for the strip: the selected thumbnail; arrows move within it.
              tabIndex={i === current ? 0 : -1}
              onClick={() => setIndex(i)}
              onKeyDown={onThumbKeyDown}
              aria-label={altOf(i)}
              aria-current={i === current ? 'true' : undefined}
              className={cn(
                'block overflow-hidden rounded-lg border-2',
                i === current
                  ? 'border-primary'
                  : 'border-transparent opacity-80 hover:opacity-100',
              )}
            >
              <CarPicture src={src} alt="" iconSize={48} className="w-24" />
            </button>
          </li>
        ))}
      </ul>
      {viewer}
    </section>
  );
}
