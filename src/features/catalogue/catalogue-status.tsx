import { Trans } from '@lingui/react/macro';

import { formatDateTime } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { useOnline } from '@/infra/network';
import { OfflineIcon, RefreshIcon } from '@/ui/icons';
import { Spinner } from '@/ui/spinner';

import { retryCatalogueSync, useCatalogueStatus } from '@/features/catalogue/catalogue-api';

/**
 * A running update of a catalogue that was updated before: a spinner beside the page's title
 * ("Mise à jour…" for screen readers). Not in the status line: beside its "updated on…" text the
 * spinner wrapped the line on a phone and moved the list down and back (CLS 0.05 on a repeat
 * visit, docs/performance.md).
 */
export function CatalogueUpdating() {
  const status = useCatalogueStatus();
  const online = useOnline();
  if (!online || status.state !== 'syncing' || !status.last_success_at) return null;
  return (
    <span className="inline-flex text-fg-muted" data-testid="catalogue-updating">
      <Spinner size="sm" />
      <span className="sr-only">
        <Trans>Mise à jour…</Trans>
      </span>
    </span>
  );
}

/**
 * How fresh the catalogue on this device is: when it was last updated (Algiers time), whether
 * the device is offline, the first update running, or a failed one (with a retry).
 */
export function CatalogueStatus({ locale }: { locale: Locale }) {
  const status = useCatalogueStatus();
  const online = useOnline();
  const updatedAt = status.last_success_at ? formatDateTime(status.last_success_at, locale) : null;
  const syncing = online && status.state === 'syncing';
  return (
    // A line's height even while empty: the first "updating…" or "updated on…" then pushes
    // nothing down (no layout shift on a first visit, docs/performance.md).
    <div className="flex min-h-5 flex-wrap items-center gap-x-4 gap-y-2 text-sm text-fg-muted">
      {!online && (
        <p
          className="inline-flex items-center gap-1.5 rounded-full bg-warning/15 px-3 py-1 font-medium text-warning"
          data-testid="offline-indicator"
        >
          <OfflineIcon size={16} />
          <Trans>Hors ligne : catalogue enregistré sur cet appareil</Trans>
        </p>
      )}
      {updatedAt && (
        <p data-testid="last-updated">
          <Trans>
            Mis à jour le <time dateTime={status.last_success_at ?? undefined}>{updatedAt}</time>{' '}
            (heure d’Alger)
          </Trans>
        </p>
      )}
      {syncing && !updatedAt && (
        <p className="inline-flex items-center gap-1.5">
          <Spinner size="sm" />
          <Trans>Mise à jour…</Trans>
        </p>
      )}
      {online && status.state === 'error' && updatedAt && (
        <p className="inline-flex items-center gap-2 text-danger">
          <Trans>La dernière mise à jour a échoué.</Trans>
          <button
            type="button"
            onClick={retryCatalogueSync}
            className="inline-flex items-center gap-1 font-medium underline underline-offset-2"
          >
            <RefreshIcon size={14} />
            <Trans>Réessayer</Trans>
          </button>
        </p>
      )}
    </div>
  );
}
