import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, lazy, useCallback, useEffect, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { recordOfRequest, type HandoverKind } from '@/domain/handover';
import { useSession } from '@/infra/session';
import type { HandoverWithLinks } from '@/sync/handovers-sync';
import type { QueuedHandover } from '@/sync/outbox/handover';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { HandoverSummary } from '@/ui/handover-summary';

import {
  discardQueuedHandover,
  loadHandovers,
  requestFlush,
  useQueuedHandovers,
  useQueuedPhotoLinks,
} from '@/features/staff/handover-api';
import { useLocale } from '@/features/staff/staff-booking-parts';
import type { StaffBooking } from '@/features/staff/staff-api';

// The form (photos, the damage outline) loads when staff start a record: the booking page opens
// without it (32 KB); the service worker precaches it, so it opens offline in the car park too.
const HandoverForm = lazy(() =>
  import('@/features/staff/handover-form').then((m) => ({ default: m.HandoverForm })),
);

const titles: Record<HandoverKind, MessageDescriptor> = {
  pickup: msg`Prise en charge`,
  return: msg`Retour`,
};

/** Whether staff may record `kind` now (the server checks it again: handover_wrong_status). */
function allowed(kind: HandoverKind, status: string): boolean {
  return kind === 'pickup'
    ? status === 'reserved' || status === 'in_progress'
    : status === 'in_progress' || status === 'completed';
}

/** What happens to a record waiting on this phone, in words. */
function QueuedState({ queued, online }: { queued: QueuedHandover; online: boolean }) {
  const { i18n } = useLingui();
  const photos = queued.photosLeft;
  const attempts = queued.attempts;
  if (queued.state === 'parked') {
    return (
      <p role="alert" className="text-sm text-danger" data-testid="handover-refused">
        <Trans>Refusé par le serveur :</Trans> {i18n._(bookingErrorMessage(queued.error))}
      </p>
    );
  }
  return (
    <p className="text-sm" role="status" data-testid="handover-queued" data-state={queued.state}>
      {queued.state === 'sending' ? (
        <Trans>Envoi en cours…</Trans>
      ) : online ? (
        <Trans>En attente d’envoi ({photos} photo(s) à envoyer).</Trans>
      ) : (
        <Trans>
          Gardé sur ce téléphone : il partira au retour du réseau ({photos} photo(s) à envoyer).
        </Trans>
      )}
      {queued.attempts > 0 && (
        <span className="text-fg-muted">
          {' '}
          <Trans>Tentatives : {attempts}.</Trans>
        </span>
      )}
    </p>
  );
}

/** Records of this booking still on this phone (also shown when the page could not load). */
export function QueuedHandovers({ bookingId, online }: { bookingId: string; online: boolean }) {
  const { i18n } = useLingui();
  const locale = useLocale();
  const queued = useQueuedHandovers(bookingId);
  const links = useQueuedPhotoLinks(queued);
  if (!queued || queued.length === 0) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="handover-queue">
      {queued.map((q) => (
        <div
          key={q.entryId}
          className="flex flex-col gap-2 rounded-lg border border-warning/50 p-3"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-medium">{i18n._(titles[q.kind])}</h3>
            <Badge tone={q.state === 'parked' ? 'danger' : 'warning'}>
              {q.state === 'parked' ? <Trans>Refusé</Trans> : <Trans>Pas encore envoyé</Trans>}
            </Badge>
          </div>
          <QueuedState queued={q} online={online} />
          <HandoverSummary
            record={recordOfRequest(q.payload)}
            links={links}
            locale={locale}
            showFullNumber
          />
          {q.state === 'parked' && (
            <Button
              type="button"
              variant="secondary"
              size="sm"
              className="self-start"
              onClick={() => void discardQueuedHandover(q.entryId)}
            >
              <Trans>Abandonner ce relevé</Trans>
            </Button>
          )}
        </div>
      ))}
    </div>
  );
}

/**
 * The booking's pickup and return records (docs/handovers.md): those on the server, those waiting
 * on this phone, and the form to record the next one — which works offline.
 */
export function HandoverPanel({ booking, online }: { booking: StaffBooking; online: boolean }) {
  const { i18n } = useLingui();
  const locale = useLocale();
  const { user } = useSession();
  const queued = useQueuedHandovers(booking.id);
  const [records, setRecords] = useState<HandoverWithLinks[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [form, setForm] = useState<HandoverKind | null>(null);
  const waiting = queued?.length ?? 0;

  const load = useCallback(async () => {
    const result = await loadHandovers(booking.id);
    setFailed(!result.ok);
    if (result.ok) setRecords(result.data);
  }, [booking.id]);

  // Loaded again when the queue changes: a record that left it is on the server now (the page
  // reloads the booking's history for the same reason: use-handover-landings.ts).
  useEffect(() => {
    if (!online) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching is this effect's job
    void load();
  }, [online, load, waiting]);

  const stored = (kind: HandoverKind) => records?.find((r) => r.kind === kind) ?? null;
  const inQueue = (kind: HandoverKind) => queued?.some((q) => q.kind === kind) ?? false;
  const pickupKm =
    stored('pickup')?.odometer_km ??
    queued?.find((q) => q.kind === 'pickup')?.payload.odometer_km ??
    null;

  return (
    <div className="flex flex-col gap-4" data-testid="handover-panel">
      <QueuedHandovers bookingId={booking.id} online={online} />
      {failed && (
        <p className="text-sm text-fg-muted">
          <Trans>Les relevés enregistrés n’ont pas pu être chargés.</Trans>
        </p>
      )}
      {(['pickup', 'return'] as const).map((kind) => {
        const record = stored(kind);
        const canRecord =
          !record &&
          !inQueue(kind) &&
          allowed(kind, booking.status) &&
          (kind === 'pickup' || pickupKm !== null);
        return (
          <div key={kind} className="flex flex-col gap-2">
            {record ? (
              <>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-medium">{i18n._(titles[kind])}</h3>
                  <Badge tone="neutral" data-testid={`handover-synced-${kind}`}>
                    <Trans>Enregistré</Trans>
                  </Badge>
                </div>
                <HandoverSummary
                  record={record}
                  links={record.links}
                  locale={locale}
                  showFullNumber
                />
              </>
            ) : form === kind && user ? (
              <>
                <h3 className="font-medium">{i18n._(titles[kind])}</h3>
                <Suspense fallback={null}>
                  <HandoverForm
                    kind={kind}
                    bookingId={booking.id}
                    staffId={user.userId}
                    defaultDeposit={booking.price.deposit}
                    pickupOdometer={pickupKm}
                    onQueued={() => {
                      setForm(null);
                      requestFlush();
                    }}
                    onCancel={() => setForm(null)}
                  />
                </Suspense>
              </>
            ) : (
              canRecord && (
                <Button
                  type="button"
                  variant="secondary"
                  className="self-start"
                  data-testid={`handover-start-${kind}`}
                  onClick={() => setForm(kind)}
                >
                  {kind === 'pickup' ? (
                    <Trans>Faire l’état des lieux de départ</Trans>
                  ) : (
                    <Trans>Faire l’état des lieux de retour</Trans>
                  )}
                </Button>
              )
            )}
          </div>
        );
      })}
    </div>
  );
}
