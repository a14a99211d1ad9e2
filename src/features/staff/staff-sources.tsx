import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { formatDateTime } from '@/domain/dates';
import { REASON_MAX } from '@/domain/lifecycle';
import { showToast } from '@/infra/toast';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { ReferenceText } from '@/ui/reference-text';

import { fetchPendingSources, rejectSource, type PendingSource } from '@/features/staff/staff-api';
import { useLocale } from '@/features/staff/staff-booking-parts';

/** From this many pending bookings, a source is shown as a wave. */
export const WAVE_MIN = 3;

function RejectSourceDialog({
  source,
  onClose,
  onDone,
}: {
  source: PendingSource | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
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
    if (!source) return;
    if (!reason.trim()) {
      setError(i18n._(bookingErrorMessage('reason_required')));
      return;
    }
    setBusy(true);
    setError(null);
    const result = await rejectSource(source, reason);
    setBusy(false);
    if (!result.ok) {
      setError(
        result.offline
          ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
          : i18n._(bookingErrorMessage(result.code)),
      );
      return;
    }
    const done = result.data;
    showToast(plural(done, { one: '# réservation refusée', other: '# réservations refusées' }), {
      kind: 'success',
    });
    close();
    onDone();
  }

  const count = source?.pending ?? 0;
  return (
    <Dialog
      open={!!source}
      onClose={close}
      role="alertdialog"
      title={plural(count, {
        one: 'Refuser la réservation de cette source ?',
        other: 'Refuser les # réservations de cette source ?',
      })}
      description={t`Chaque voyageur reçoit le refus avec votre motif, comme pour un refus à l’unité. Les voitures sont libérées aussitôt.`}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            <Trans>Ne rien changer</Trans>
          </Button>
          <Button
            type="submit"
            form={`${id}-form`}
            variant="danger"
            loading={busy}
            data-testid="confirm-reject-source"
          >
            <Trans>Tout refuser</Trans>
          </Button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        noValidate
        className="flex flex-col gap-1"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          <Trans>Motif (chaque voyageur le verra)</Trans>
        </label>
        <textarea
          id={`${id}-reason`}
          value={reason}
          rows={3}
          maxLength={REASON_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setReason(event.target.value)}
          className="w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger"
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}

function SourceItem({
  source,
  onReject,
}: {
  source: PendingSource;
  onReject: (source: PendingSource) => void;
}) {
  // (useLocale subscribes to the language: the plurals below follow a switch.)
  const locale = useLocale();
  const labelId = useId();
  const last = formatDateTime(source.last_at, locale);
  const days = Math.round(source.car_days);
  const { pending, unconfirmed } = source;
  return (
    <li
      aria-labelledby={labelId}
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3"
      data-testid="staff-source"
      data-source={source.source}
    >
      <p id={labelId} className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-sm text-fg-muted">
          {source.kind === 'address' ? (
            <Trans>Adresse du réseau</Trans>
          ) : (
            <Trans>Domaine d’e-mail</Trans>
          )}
        </span>
        <bdi className="font-mono font-semibold break-all" dir="ltr">
          {source.source}
        </bdi>
      </p>
      <p className="text-sm">
        {plural(pending, { one: '# réservation en attente', other: '# réservations en attente' })}
        {unconfirmed > 0 && (
          <>
            {' · '}
            {plural(unconfirmed, {
              one: '# sans e-mail confirmé',
              other: '# sans e-mail confirmé',
            })}
          </>
        )}
        {' · '}
        {plural(days, { one: '# jour-voiture retenu', other: '# jours-voiture retenus' })}
        {' · '}
        <Trans>dernière le {last}</Trans>
      </p>
      <p className="flex flex-wrap gap-x-3 text-sm text-fg-muted">
        {source.refs.map((reference) => (
          <ReferenceText key={reference} reference={reference} className="font-mono" />
        ))}
      </p>
      <Button
        size="sm"
        variant="danger"
        className="self-start"
        onClick={() => onReject(source)}
        data-testid="reject-source"
      >
        {plural(pending, { one: 'Refuser la réservation', other: 'Refuser les # réservations' })}
      </Button>
    </li>
  );
}

/**
 * Where pending bookings come from (docs/bookings.md, "Waves"): the client addresses and private
 * mail domains with several pending bookings, so staff see a wave and clear it in one action.
 * Online only, like the rest of the board; shown when a source has WAVE_MIN bookings or more.
 */
export function StaffSources({ online, onChanged }: { online: boolean; onChanged: () => void }) {
  const headingId = useId();
  const [sources, setSources] = useState<PendingSource[]>([]);
  const [rejecting, setRejecting] = useState<PendingSource | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void fetchPendingSources().then((result) => {
      if (live && result.ok) setSources(result.data.filter((s) => s.pending >= WAVE_MIN));
    });
    return () => {
      live = false;
    };
  }, [online, version]);

  if (!online || sources.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-warning/50 bg-warning/5 p-3 sm:p-4"
      data-testid="staff-sources"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        <Trans>D’où viennent les réservations en attente</Trans>
      </h2>
      <p className="text-sm text-fg-muted">
        <Trans>
          Plusieurs réservations d’une même adresse ou d’un même domaine d’e-mail peuvent être une
          vague : vérifiez-les, puis refusez-les en une fois si besoin.
        </Trans>
      </p>
      <ul className="flex flex-col gap-2">
        {sources.map((source) => (
          <SourceItem
            key={`${source.kind}:${source.source}`}
            source={source}
            onReject={setRejecting}
          />
        ))}
      </ul>
      <RejectSourceDialog
        source={rejecting}
        onClose={() => setRejecting(null)}
        onDone={() => {
          setVersion((v) => v + 1);
          onChanged();
        }}
      />
    </section>
  );
}
