import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef } from 'react';

import { IconButton } from '@/ui/button';
import { CarPicture } from '@/ui/car-picture';
import { ChevronEndIcon, ChevronStartIcon, CloseIcon } from '@/ui/icons';
import { Modal } from '@/ui/modal';
import { useSwipe } from '@/ui/swipe';

/**
 * A car's pictures full screen, in a modal dialog (src/ui/modal.tsx: focus stays inside, Esc
 * closes, focus goes back to the button that opened it), named after the car and the position.
 * Swipe, the previous/next buttons or ←/→ (mirrored in Arabic) move between pictures; a picture
 * that cannot load offline shows "Photo indisponible" (CarPicture).
 */
export function CarPhotoViewer({
  open,
  onClose,
  name,
  images,
  index,
  onIndex,
  altOf,
}: {
  open: boolean;
  onClose: () => void;
  name: string;
  images: readonly string[];
  index: number;
  onIndex: (next: number) => void;
  altOf: (i: number) => string;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const count = images.length;
  const position = index + 1;
  const go = (next: number) => onIndex((next + count) % count);
  const swipe = useSwipe((step) => go(index + step));

  // ←/→ anywhere in the dialog (mirrored when the page is right-to-left), Home and End.
  const keys = useRef<(event: KeyboardEvent) => void>(() => {});
  useEffect(() => {
    keys.current = (event) => {
      if (count <= 1 || event.altKey || event.ctrlKey || event.metaKey) return;
      const rtl = document.documentElement.dir === 'rtl';
      const steps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
      let next: number;
      if (event.key in steps) next = index + steps[event.key]! * (rtl ? -1 : 1);
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = count - 1;
      else return;
      event.preventDefault();
      onIndex((next + count) % count);
    };
  });
  useEffect(() => {
    if (!open) return;
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [open]);

  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      initialFocus={closeRef}
      className="fixed inset-0 m-0 h-dvh max-h-none w-screen max-w-none p-0"
    >
      {open && (
        <div className="flex h-full flex-col" data-testid="photo-viewer">
          <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
            <h2 id={titleId} className="min-w-0 text-base font-semibold break-words">
              <bdi>{name}</bdi>
              {count > 1 && (
                <>
                  {' · '}
                  <Trans>
                    photo {position} sur {count}
                  </Trans>
                </>
              )}
            </h2>
            <IconButton
              ref={closeRef}
              label={t`Fermer`}
              icon={<CloseIcon />}
              onClick={onClose}
              data-testid="photo-viewer-close"
            />
          </div>
          <div
            {...swipe}
            onDragStart={(event) => event.preventDefault()}
            className="relative flex min-h-0 flex-1 touch-pan-y items-center justify-center p-2 select-none"
            data-testid="photo-viewer-stage"
          >
            <CarPicture
              src={images[index]}
              alt={altOf(index)}
              eager
              iconSize={48}
              className="max-h-full w-full rounded-lg object-contain"
            />
            {count > 1 && (
              <>
                <IconButton
                  label={t`Photo précédente`}
                  icon={<ChevronStartIcon />}
                  variant="secondary"
                  onClick={() => go(index - 1)}
                  className="absolute inset-y-0 start-2 my-auto rounded-full shadow"
                />
                <IconButton
                  label={t`Photo suivante`}
                  icon={<ChevronEndIcon />}
                  variant="secondary"
                  onClick={() => go(index + 1)}
                  className="absolute inset-y-0 end-2 my-auto rounded-full shadow"
                />
              </>
            )}
          </div>
          {count > 1 && (
            <p
              className="py-3 text-center text-sm font-medium tabular-nums"
              data-testid="photo-viewer-position"
              aria-live="polite"
            >
              <bdi dir="ltr">
                {position} / {count}
              </bdi>
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
