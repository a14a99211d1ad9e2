import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';

import { bookingErrorMessage, hasBookingErrorMessage } from '@/domain/booking-errors';
import { MAX_CAR_PICTURES, makeCover, movePicture } from '@/domain/car-pictures';
import { preparePicture } from '@/infra/picture-upload';
import { Button } from '@/ui/button';
import { CarPicture } from '@/ui/car-picture';

import type { FleetCar } from '@/features/staff/fleet';
import {
  carPictureSrc,
  forgetCarPictures,
  saveCarPictures,
  uploadCarPicture,
} from '@/features/staff/fleet-api';

/** What the device accepts (HEIC/HEIF are converted; everything is re-encoded, docs/fleet.md). */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif';

/** The device's own failures; the server's codes read the one list (src/domain/booking-errors.ts). */
function usePictureErrors() {
  const { t, i18n } = useLingui();
  return (code: string): string => {
    switch (code) {
      case 'file_too_large':
        return t`Cette photo reste trop lourde (5 Mo au plus).`;
      case 'conversion_failed':
        return t`Cette photo n’a pas pu être préparée sur l’appareil.`;
      case 'network':
        return t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`;
      default:
        return hasBookingErrorMessage(code)
          ? i18n._(bookingErrorMessage(code))
          : t`Le serveur a refusé ce changement (${code}).`;
    }
  };
}

/**
 * A car's pictures on /staff/cars (docs/fleet.md, "Pictures"): add (resized on the device, then
 * uploaded to the `cars` bucket), move up or down, make one the cover (first), remove. Every
 * change is saved at once through staff_set_car_pictures; the status line announces it.
 */
export function CarPicturesPanel({
  car,
  online,
  onChanged,
  onClose,
}: {
  car: FleetCar;
  online: boolean;
  onChanged: (images: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const errorText = usePictureErrors();
  const inputId = useId();
  const [images, setImages] = useState<string[]>(car.images);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const name = car.name;
  const count = images.length;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the car's "Photos" button: the keyboard and screen reader land on the panel.
  useEffect(() => heading.current?.focus(), []);

  async function save(next: string[], done: string): Promise<boolean> {
    const result = await saveCarPictures(car.id, next);
    if (!result.ok) {
      setStatus({ text: errorText(result.code), error: true });
      return false;
    }
    const removed = images.filter((entry) => !result.data.images.includes(entry));
    setImages(result.data.images);
    onChanged(result.data.images);
    setStatus({ text: done, error: false });
    void forgetCarPictures(removed);
    return true;
  }

  async function run(work: () => Promise<unknown>) {
    setBusy(true);
    setStatus(null);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }

  async function add(files: File[]) {
    if (count + files.length > MAX_CAR_PICTURES) {
      return setStatus({ text: errorText('too_many_pictures'), error: true });
    }
    const added: string[] = [];
    for (const file of files) {
      const prepared = await preparePicture(file);
      if (!prepared.ok) return setStatus({ text: errorText(prepared.error), error: true });
      const uploaded = await uploadCarPicture(car.id, prepared.picture);
      if (!uploaded.ok) return setStatus({ text: errorText(uploaded.code), error: true });
      added.push(uploaded.entry);
    }
    const total = count + added.length;
    if (!(await save([...images, ...added], t`Photos ajoutées : ${total} en tout.`))) {
      void forgetCarPictures(added);
    }
  }

  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
      data-testid="car-pictures"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id={`${inputId}-title`}
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Trans>
            Photos de <bdi>{name}</bdi>
          </Trans>
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          <Trans>Fermer</Trans>
        </Button>
      </div>
      <p className="text-sm text-fg-muted">
        <Trans>
          La première photo est la couverture du catalogue. Les photos sont réduites sur l’appareil
          (1600 px au plus) avant l’envoi ; au plus {MAX_CAR_PICTURES}.
        </Trans>
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-sm font-medium">
          <Trans>Ajouter des photos</Trans>
        </label>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          multiple
          disabled={!online || busy || count >= MAX_CAR_PICTURES}
          data-testid="picture-input"
          className="w-full min-w-0 text-sm file:me-3 file:min-h-9 file:rounded-lg file:border file:border-line file:bg-surface file:px-3 focus-visible:outline-2 focus-visible:outline-ring"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) void run(() => add(files));
          }}
        />
      </div>
      <p
        role="status"
        className={status?.error ? 'text-sm text-danger' : 'text-sm text-fg-muted'}
        data-testid="pictures-status"
      >
        {busy ? <Trans>Enregistrement…</Trans> : status?.text}
      </p>
      {count === 0 ? (
        <p className="text-sm text-fg-muted">
          <Trans>Aucune photo : le catalogue montre un dessin de voiture.</Trans>
        </p>
      ) : (
        <ol className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="picture-list">
          {images.map((entry, index) => {
            const n = index + 1;
            const label =
              index === 0 ? t`Photo ${n} sur ${count} (couverture)` : t`Photo ${n} sur ${count}`;
            return (
              <li
                key={entry}
                className="flex min-w-0 flex-col gap-2 rounded-lg border border-line p-2"
                data-testid="picture-item"
                data-entry={entry}
              >
                <CarPicture src={carPictureSrc(entry)} alt={label} className="w-full rounded-md" />
                <span className="text-sm font-medium">{label}</span>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={!online || busy || index === 0}
                    aria-label={t`Monter la photo ${n}`}
                    onClick={() =>
                      void run(() =>
                        save(movePicture(images, index, -1), t`Photo ${n} montée d’un rang.`),
                      )
                    }
                  >
                    <Trans>Monter</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={!online || busy || index === count - 1}
                    aria-label={t`Descendre la photo ${n}`}
                    onClick={() =>
                      void run(() =>
                        save(movePicture(images, index, 1), t`Photo ${n} descendue d’un rang.`),
                      )
                    }
                  >
                    <Trans>Descendre</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={!online || busy || index === 0}
                    aria-label={t`Faire de la photo ${n} la couverture`}
                    onClick={() =>
                      void run(() => save(makeCover(images, index), t`Photo ${n} en couverture.`))
                    }
                  >
                    <Trans>Couverture</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={!online || busy}
                    aria-label={t`Supprimer la photo ${n}`}
                    onClick={() =>
                      void run(() =>
                        save(
                          images.filter((_, i) => i !== index),
                          t`Photo ${n} supprimée.`,
                        ),
                      )
                    }
                  >
                    <Trans>Supprimer</Trans>
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
