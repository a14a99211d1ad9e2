import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type KeyboardEvent } from 'react';

import { CarPicture } from '@/ui/car-picture';
import { cn } from '@/ui/cn';
import { ChevronEndIcon, ChevronStartIcon } from '@/ui/icons';

/** Steps of the arrow keys in reading order; mirrored when the page is right-to-left. */
const arrowSteps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };

/**
 * The pictures of a car: one large, thumbnails to choose. Keyboard: Tab to the previous/next
 * buttons or to the selected thumbnail, then ←/→ (mirrored in Arabic), Home and End move between
 * pictures. Every picture has a text alternative; the position is announced politely.
 */
export function CarGallery({ name, images }: { name: string; images: readonly string[] }) {
  const { t } = useLingui();
  const [index, setIndex] = useState(0);
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const count = images.length;
  const current = Math.min(index, Math.max(0, count - 1));
  const position = current + 1;
  const altOf = (i: number) => {
    const n = i + 1;
    return t`${name}, photo ${n} sur ${count}`;
  };

  if (count <= 1) {
    return (
      <CarPicture
        src={images[0]}
        alt={t`${name}, vue principale`}
        eager
        iconSize={48}
        className="w-full rounded-xl"
      />
    );
  }

  const go = (next: number) => setIndex((next + count) % count);

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

  return (
    <section aria-label={t`Photos de ${name}`} className="flex flex-col gap-3">
      <div className="relative">
        <CarPicture
          src={images[current]}
          alt={altOf(current)}
          eager
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
          className="absolute inset-y-0 start-2 my-auto flex size-10 items-center justify-center rounded-full bg-surface/85 shadow"
        >
          <ChevronStartIcon />
        </button>
        <button
          type="button"
          onClick={() => go(current + 1)}
          aria-label={t`Photo suivante`}
          className="absolute inset-y-0 end-2 my-auto flex size-10 items-center justify-center rounded-full bg-surface/85 shadow"
        >
          <ChevronEndIcon />
        </button>
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
    </section>
  );
}
