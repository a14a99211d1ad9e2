import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { localeNames } from '@/domain/locale';
import { REASON_MAX } from '@/domain/lifecycle';
import type { Booking } from '@/domain/rows';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

import { actionCopy } from '@/features/staff/labels';
import { setBookingStatus } from '@/features/staff/staff-api';
import { reasonProblem, type StaffAction } from '@/features/staff/transitions';
import { TextWithReferences } from '@/ui/reference-text';

/** A copy message with the booking's reference filled in. */
function withReference(descriptor: MessageDescriptor, reference: string): MessageDescriptor {
  return { ...descriptor, values: { reference } };
}

/**
 * The confirmation of a staff move. Online only: nothing is queued. The server's refusals come
 * back translated (invalid_status_transition when someone else moved the booking first,
 * reason_required, not_allowed…); the list is reloaded after a success or a stale booking.
 */
export function StaffActionDialog({
  booking,
  action,
  open,
  onClose,
  onChanged,
}: {
  booking: (Pick<Booking, 'id' | 'reference'> & { locale?: Booking['locale'] }) | null;
  action: StaffAction | null;
  open: boolean;
  onClose: () => void;
  /** The booking changed on the server (this move, or someone else's): reload. */
  onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setReason('');
    setError(null);
    onClose();
  }

  async function confirm() {
    if (!booking || !action) return;
    const problem = reasonProblem(action, reason);
    if (problem === 'reason_required') {
      setError(i18n._(bookingErrorMessage('reason_required')));
      return;
    }
    if (problem === 'reason_too_long') {
      setError(t`Le motif fait au plus ${REASON_MAX} caractères.`);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await setBookingStatus(
      booking.id,
      action.to,
      action.reasonRequired ? reason : null,
    );
    setBusy(false);
    if (result.ok) {
      showToast(i18n._(withReference(actionCopy[action.kind].done, booking.reference)), {
        kind: 'success',
      });
      close();
      onChanged();
      return;
    }
    if (result.offline) {
      setError(t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`);
      return;
    }
    setError(i18n._(bookingErrorMessage(result.code)));
    if (result.code === 'invalid_status_transition' || result.code === 'not_found') onChanged();
  }

  const copy = action ? actionCopy[action.kind] : null;
  const reference = booking?.reference ?? '';
  const length = reason.length;
  return (
    <Dialog
      open={open && !!action}
      onClose={close}
      role="alertdialog"
      title={copy ? <TextWithReferences text={i18n._(withReference(copy.title, reference))} /> : ''}
      description={copy ? i18n._(copy.body) : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            <Trans>Ne rien changer</Trans>
          </Button>
          <Button
            type="submit"
            form={`${id}-form`}
            variant={action?.destructive ? 'danger' : 'primary'}
            loading={busy}
            disabled={!online}
            data-testid="confirm-staff-action"
          >
            {copy ? i18n._(copy.button) : ''}
          </Button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        {action?.reasonRequired && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-reason`} className="text-sm font-medium">
              <Trans>Motif (le client le verra)</Trans>
            </label>
            {booking?.locale && (
              <p
                id={`${id}-language`}
                className="text-xs text-fg-muted"
                data-testid="reason-language"
              >
                <Trans>Écrivez-le dans la langue du client :</Trans>{' '}
                <strong lang={booking.locale}>{localeNames[booking.locale]}</strong>
              </p>
            )}
            <textarea
              id={`${id}-reason`}
              value={reason}
              rows={3}
              maxLength={REASON_MAX}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${booking?.locale ? `${id}-language ` : ''}${id}-count${error ? ` ${id}-error` : ''}`}
              onChange={(event) => setReason(event.target.value)}
              className="w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger"
            />
            <p id={`${id}-count`} className="text-end text-xs text-fg-muted tabular-nums">
              <Trans>
                {length} / {REASON_MAX} caractères
              </Trans>
            </p>
          </div>
        )}
        {!online && (
          <p className="rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
            <Trans>Hors ligne : les actions du personnel ne sont pas mises en attente.</Trans>
          </p>
        )}
        {error && (
          <p
            id={`${id}-error`}
            role="alert"
            className="text-sm text-danger"
            data-testid="staff-action-error"
          >
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
