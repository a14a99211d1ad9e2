import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { formatDate, formatDateTime } from '@/domain/dates';
import { LIMITS } from '@/domain/limits';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { ReferenceText } from '@/ui/reference-text';

import { blockBounds, type CalendarBlock } from '@/features/staff/calendar';
import {
  blockCar,
  blockCollisions,
  unblockCar,
  type BlockCollision,
} from '@/features/staff/calendar-api';
import { useLocale } from '@/features/staff/staff-booking-parts';

/** Wording of the block dialog where it says more than the shared message (docs/fleet.md). */
const blockErrors: Record<string, MessageDescriptor> = {
  reason_required: msg`Indiquez le motif du blocage.`,
  car_not_found: msg`Cette voiture n’existe plus.`,
};

function BlockReason({ reason }: { reason: string }) {
  return <Trans>Blocage : {reason}</Trans>;
}

function blockErrorMessage(code: string): MessageDescriptor {
  return blockErrors[code] ?? bookingErrorMessage(code);
}

const fieldClassName =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';

/** Blocks a car for whole days; shows what the period would meet before saving. */
export function BlockDialog({
  car,
  day,
  onClose,
  onChanged,
}: {
  car: { id: string; name: string } | null;
  day: string | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const id = useId();
  const [first, setFirst] = useState(day ?? '');
  const [last, setLast] = useState(day ?? '');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [collisions, setCollisions] = useState<BlockCollision[] | null>(null);
  const [opened, setOpened] = useState(day);
  if (opened !== day) {
    setOpened(day);
    setFirst(day ?? '');
    setLast(day ?? '');
    setReason('');
    setError(null);
    setCollisions(null);
  }
  const valid = !!first && !!last && last >= first;
  const carId = car?.id ?? null;
  const carName = car?.name ?? '';

  useEffect(() => {
    if (!carId || !valid || !online) return;
    let live = true;
    const { start_at, end_at } = blockBounds(first, last);
    void blockCollisions(carId, start_at, end_at).then((result) => {
      if (live) setCollisions(result.ok ? result.data : null);
    });
    return () => {
      live = false;
    };
  }, [carId, first, last, valid, online]);

  async function save() {
    if (!car) return;
    if (!valid) return setError(i18n._(blockErrorMessage('invalid_period')));
    if (!reason.trim()) return setError(i18n._(blockErrorMessage('reason_required')));
    setBusy(true);
    setError(null);
    const { start_at, end_at } = blockBounds(first, last);
    const result = await blockCar(car.id, start_at, end_at, reason);
    setBusy(false);
    if (result.ok) {
      showToast(t`Voiture bloquée`, { kind: 'success' });
      onClose();
      onChanged();
      return;
    }
    setError(
      result.offline
        ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
        : i18n._(blockErrorMessage(result.code)),
    );
  }

  const stopping = (collisions ?? []).filter((c) => c.holds);
  return (
    <Dialog
      open={!!car && !!day}
      onClose={onClose}
      title={t`Bloquer ${carName}`}
      description={t`La voiture n’est plus proposée aux clients pendant ces jours.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Annuler</Trans>
          </Button>
          <Button
            type="submit"
            form={`${id}-form`}
            loading={busy}
            disabled={!online || stopping.length > 0}
            data-testid="confirm-block"
          >
            <Trans>Bloquer</Trans>
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
          void save();
        }}
      >
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-first`} className="text-sm font-medium">
              <Trans>Premier jour</Trans>
            </label>
            <input
              id={`${id}-first`}
              type="date"
              value={first}
              onChange={(event) => setFirst(event.target.value)}
              className={fieldClassName}
              data-testid="block-first"
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-last`} className="text-sm font-medium">
              <Trans>Dernier jour</Trans>
            </label>
            <input
              id={`${id}-last`}
              type="date"
              value={last}
              min={first || undefined}
              onChange={(event) => setLast(event.target.value)}
              className={fieldClassName}
              data-testid="block-last"
            />
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-reason`} className="text-sm font-medium">
            <Trans>Motif (visible du personnel seulement)</Trans>
          </label>
          <textarea
            id={`${id}-reason`}
            value={reason}
            rows={2}
            maxLength={LIMITS.blockReason}
            placeholder={t`Vidange, carrosserie, usage privé…`}
            onChange={(event) => setReason(event.target.value)}
            className="w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring"
            data-testid="block-reason"
          />
        </div>
        {collisions && collisions.length > 0 && (
          <div className="flex flex-col gap-1 text-sm" data-testid="block-collisions">
            <p className="font-medium">
              {stopping.length > 0 ? (
                <Trans>Ces jours touchent ce qui occupe déjà la voiture :</Trans>
              ) : (
                <Trans>Réservations en attente de leur code sur ces jours :</Trans>
              )}
            </p>
            <ul className="flex flex-col gap-1">
              {collisions.map((c) => (
                <li key={c.id} className="rounded-lg bg-muted px-2 py-1">
                  {c.reference ? (
                    <ReferenceText reference={c.reference} className="font-mono" />
                  ) : (
                    <BlockReason reason={c.reason ?? ''} />
                  )}{' '}
                  <span className="text-fg-muted">
                    {formatDateTime(c.from_at, locale)} → {formatDateTime(c.to_at, locale)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {collisions && collisions.length === 0 && valid && (
          <p className="text-sm text-fg-muted" data-testid="block-free">
            <Trans>Aucune réservation sur ces jours.</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-danger" data-testid="block-error">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/** A block's details, and removing it. */
export function UnblockDialog({
  block,
  carName,
  onClose,
  onChanged,
}: {
  block: CalendarBlock | null;
  carName: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = block ? formatDate(block.start_at, locale) : '';
  const end = block ? formatDateTime(block.end_at, locale) : '';
  const reason = block?.reason ?? '';

  async function unblock() {
    if (!block) return;
    setBusy(true);
    setError(null);
    const result = await unblockCar(block.id);
    setBusy(false);
    if (result.ok || result.code === 'not_found') {
      showToast(t`Blocage levé`, { kind: 'success' });
      onClose();
      onChanged();
      return;
    }
    setError(
      result.offline
        ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
        : i18n._(blockErrorMessage(result.code)),
    );
  }

  return (
    <Dialog
      open={!!block}
      onClose={onClose}
      title={t`${carName} est bloquée`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Fermer</Trans>
          </Button>
          <Button
            variant="danger"
            loading={busy}
            disabled={!online}
            onClick={() => void unblock()}
            data-testid="confirm-unblock"
          >
            <Trans>Lever le blocage</Trans>
          </Button>
        </>
      }
    >
      {block && (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            <Trans>
              Du {start} au {end}
            </Trans>
          </p>
          <p>
            <Trans>Motif : {reason}</Trans>
          </p>
          {error && (
            <p role="alert" className="text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
