import { useOnline } from '@/infra/network';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import type { LocalBooking } from '@/domain/local-booking';
import { showToast } from '@/infra/toast';
import { submitReview } from '@/sync/my-bookings-sync';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { StarRatingInput } from '@/ui/rating';

/** The server's limit on a review comment (reviews_comment_length). */
export const REVIEW_COMMENT_MAX = 1000;

/** A review of a completed rental: 1 to 5 stars and an optional comment, sent once. */
export function ReviewDialog({
  booking,
  open,
  carName,
  userId,
  onClose,
}: {
  booking: LocalBooking | null;
  open: boolean;
  carName: string;
  userId: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const online = useOnline();

  function close() {
    setRating(null);
    setComment('');
    setError(undefined);
    onClose();
  }

  async function send() {
    if (!booking) return;
    if (rating === null) {
      setError(t`Choisissez une note de 1 à 5 étoiles.`);
      return;
    }
    const text = comment.trim();
    setBusy(true);
    try {
      await submitReview(userId, booking.id, rating, text ? text : null);
      showToast(
        online
          ? t`Avis envoyé : il paraîtra sur la page de la voiture.`
          : t`Avis en attente : il sera envoyé dès le retour du réseau, puis paraîtra sur la page de la voiture.`,
        { kind: online ? 'success' : 'info' },
      );
      close();
    } catch (failure) {
      console.error('[bookings] review not queued', failure);
      showToast(t`Erreur lors de l’envoi de l’avis`, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const length = comment.length;
  const max = REVIEW_COMMENT_MAX;
  return (
    <Dialog
      open={open}
      onClose={close}
      title={<Trans>Laisser un avis</Trans>}
      description={<Trans>Votre avis sur {carName} aide les autres voyageurs.</Trans>}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            <Trans>Annuler</Trans>
          </Button>
          <Button type="submit" form={`${id}-form`} loading={busy}>
            <Trans>Envoyer l’avis</Trans>
          </Button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <StarRatingInput
          value={rating}
          onChange={(n) => {
            setRating(n);
            setError(undefined);
          }}
          legend={<Trans>Votre note</Trans>}
          starLabel={(n) => plural(n, { one: '# étoile sur 5', other: '# étoiles sur 5' })}
          error={error}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-comment`} className="text-sm font-medium">
            <Trans>Votre commentaire (facultatif)</Trans>
          </label>
          <textarea
            id={`${id}-comment`}
            value={comment}
            maxLength={max}
            rows={4}
            onChange={(event) => setComment(event.target.value)}
            aria-describedby={`${id}-count`}
            className="w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring"
          />
          <p id={`${id}-count`} className="text-end text-xs text-fg-muted tabular-nums">
            <Trans>
              {length} / {max} caractères
            </Trans>
          </p>
        </div>
      </form>
    </Dialog>
  );
}
