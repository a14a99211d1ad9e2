import { useOnline } from '@/infra/network';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';

import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import type { Locale } from '@/domain/locale';
import { showToast } from '@/infra/toast';
import { enqueueCancelBooking } from '@/sync/outbox/enqueue';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { ReferenceText } from '@/ui/reference-text';

/**
 * The confirmation before cancelling (docs/product.md §4: it cannot be undone). Confirming cancels at once
 * on this device: a booking never sent is dropped from the outbox, one the server has is
 * cancelled through `cancel_booking` by the outbox, online or not.
 */
export function CancelBookingDialog({
  booking,
  open,
  carName,
  onClose,
}: {
  booking: LocalBooking | null;
  open: boolean;
  carName: string;
  onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const keepRef = useRef<HTMLButtonElement>(null);

  async function confirm() {
    if (!booking) return;
    setBusy(true);
    try {
      const neverSent = booking.status === 'queued' || booking.status === 'sync_failed';
      await enqueueCancelBooking(booking.id);
      // Say what happened: nothing sent yet, queued for the network, or on its way.
      showToast(
        neverSent
          ? t`Réservation abandonnée : elle n’avait pas encore été envoyée, l’agence ne la verra pas.`
          : online
            ? t`Annulation envoyée à l’agence : la réservation sera annulée dès sa réception.`
            : t`Annulation en attente : elle sera envoyée dès le retour du réseau, et l’agence verra alors la réservation annulée.`,
        { kind: neverSent || online ? 'success' : 'info' },
      );
      onClose();
    } catch (error) {
      console.error('[bookings] cancel not queued', error);
      showToast(t`Erreur lors de l’annulation de la réservation`, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const reference = booking?.reference ?? '';
  const start = booking ? formatDateTime(booking.start_at, locale) : '';
  return (
    <Dialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      initialFocus={keepRef}
      title={<Trans>Annuler la réservation ?</Trans>}
      description={
        <Trans>Attention : l’annulation est définitive, elle ne pourra pas être annulée.</Trans>
      }
      footer={
        <>
          <Button ref={keepRef} variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Garder la réservation</Trans>
          </Button>
          <Button
            variant="danger"
            loading={busy}
            onClick={() => void confirm()}
            data-testid="confirm-cancel"
          >
            <Trans>Oui, annuler</Trans>
          </Button>
        </>
      }
    >
      <p className="text-sm">
        <Trans>
          {carName}, à partir du {start} — référence{' '}
          <ReferenceText reference={reference} className="font-mono" />.
        </Trans>
      </p>
    </Dialog>
  );
}
