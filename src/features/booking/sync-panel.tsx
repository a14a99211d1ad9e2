import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';

import { bookingErrorMessage, isRetryableRefusal } from '@/domain/booking-errors';
import { formatDateTime } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import type { OutboxEntry } from '@/infra/db';
import { useSession } from '@/infra/session';
import { STALE_AFTER_MS } from '@/sync/outbox/entry';
import { dismissParked, retryParked } from '@/sync/outbox/parked';
import { requestFlush, subscribeSyncEngine, type SyncEngineState } from '@/sync/sync-engine';
import { Button } from '@/ui/button';

import { readLastSync, readOutboxQueue } from '@/features/booking/booking-store';
import { Card, Notice } from '@/features/booking/form-parts';

const kindLabels: Record<OutboxEntry['kind'], MessageDescriptor> = {
  upload_file: msg`Envoi d’un document`,
  create_booking: msg`Création d’une réservation`,
  cancel_booking: msg`Annulation d’une réservation`,
  submit_review: msg`Envoi d’un avis`,
  mark_notification_read: msg`Notification lue`,
  record_handover: msg`Relevé de prise en charge ou de retour`,
};

/** The sync engine's state, live. */
export function useSyncEngineState(): SyncEngineState | null {
  const [state, setState] = useState<SyncEngineState | null>(null);
  useEffect(() => subscribeSyncEngine(setState), []);
  return state;
}

/** The queue waiting for the server, the last successful sync, and "sync now". */
export function SyncPanel() {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const engine = useSyncEngineState();
  const { user } = useSession();
  const entries = useLiveQuery(readOutboxQueue, []);
  const lastSync = useLiveQuery(readLastSync, []);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const stale = (entries ?? []).filter((e) => now - e.created_at > STALE_AFTER_MS);
  const phase = engine?.phase ?? 'idle';
  const retryAt = engine?.retryAt ? formatDateTime(new Date(engine.retryAt), locale) : '';
  const last = typeof lastSync === 'string' ? formatDateTime(lastSync, locale) : null;
  const count = entries?.length ?? 0;
  /** Entries of an account that is not signed in here: they wait for it (never sent as another). */
  const heldFor = (e: OutboxEntry) => typeof e.owner === 'string' && e.owner !== user?.id;

  return (
    <Card className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">
          <Trans>Synchronisation</Trans>
        </h2>
        <Button
          size="sm"
          variant="secondary"
          loading={phase === 'flushing'}
          onClick={() => requestFlush()}
          data-testid="sync-now"
        >
          <Trans>Synchroniser</Trans>
        </Button>
      </div>
      <p className="text-sm" data-testid="sync-phase" data-phase={phase}>
        {phase === 'flushing' && <Trans>Envoi en cours…</Trans>}
        {phase === 'waitingForNetwork' && <Trans>En attente du réseau.</Trans>}
        {phase === 'backoff' && (
          <Trans>Le serveur ne répond pas ; nouvel essai le {retryAt}.</Trans>
        )}
        {phase === 'idle' &&
          (count === 0 ? (
            <Trans>Tout est envoyé.</Trans>
          ) : (
            <Trans>{count} élément(s) en attente.</Trans>
          ))}
      </p>
      <p className="text-sm text-fg-muted" data-testid="last-sync">
        {last ? (
          <Trans>Dernière synchronisation réussie : {last}</Trans>
        ) : (
          <Trans>Pas encore synchronisé.</Trans>
        )}
      </p>
      {stale.length > 0 && (
        <Notice tone="warning" live>
          <Trans>
            Certains éléments attendent depuis plus de 24 heures. Connectez-vous à Internet et
            gardez l’application ouverte un instant ; si cela dure, contactez l’agence.
          </Trans>
        </Notice>
      )}
      {count > 0 && (
        <ol className="flex flex-col gap-1 text-sm" aria-label={t`File d’attente`}>
          {entries!.map((e) => {
            const attempts = e.attempts;
            const since = formatDateTime(new Date(e.created_at), locale);
            return (
              <li
                key={e.id}
                className="flex flex-wrap justify-between gap-x-3 border-b border-line py-1"
              >
                <span>{i18n._(kindLabels[e.kind])}</span>
                <span className="text-fg-muted">
                  {e.state === 'parked' ? (
                    <span className="flex flex-wrap items-center gap-2">
                      {i18n._(bookingErrorMessage(e.last_error))}
                      {isRetryableRefusal(e.last_error) && (
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => void retryParked(e.id).then(requestFlush)}
                        >
                          <Trans>Réessayer</Trans>
                        </Button>
                      )}
                      <Button size="sm" variant="ghost" onClick={() => void dismissParked(e.id)}>
                        <Trans>Retirer</Trans>
                      </Button>
                    </span>
                  ) : heldFor(e) ? (
                    <span data-testid="held-for-sign-in">
                      <Trans>Attend que son compte se reconnecte sur cet appareil.</Trans>
                    </span>
                  ) : attempts > 0 ? (
                    <Trans>
                      depuis le {since} · {attempts} essai(s)
                    </Trans>
                  ) : (
                    <Trans>depuis le {since}</Trans>
                  )}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
