import { Trans } from '@lingui/react/macro';

import { retryCatalogueSync } from '@/features/catalogue/catalogue-api';
import type { CatalogueSyncStatus } from '@/sync/catalogue-sync';
import { Button } from '@/ui/button';
import { RefreshIcon } from '@/ui/icons';

/**
 * Whether the device has no catalogue and cannot get one now: the first sync failed, or the
 * device is offline and never synced. (A catalogue that is cached is always shown.)
 */
export function catalogueUnavailable(status: CatalogueSyncStatus, online: boolean): boolean {
  return status.last_success_at === null && (status.state === 'error' || !online);
}

/**
 * Whether a device with no cars yet is still getting its first catalogue (its first sync has not
 * ended and can still end): its lists keep their place meanwhile (/cars, the home page).
 */
export function firstCatalogueOnItsWay(
  cars: readonly unknown[],
  status: CatalogueSyncStatus,
  online: boolean,
): boolean {
  return (
    cars.length === 0 && status.last_success_at === null && !catalogueUnavailable(status, online)
  );
}

/** The spec's cars error, with what the user can do about it. */
export function CatalogueUnavailable({ online }: { online: boolean }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-xl border border-danger/40 bg-surface p-6"
    >
      <p className="font-medium text-danger">
        <Trans>Erreur lors du chargement des voitures. Veuillez réessayer.</Trans>
      </p>
      {online ? (
        <Button variant="secondary" onClick={retryCatalogueSync}>
          <RefreshIcon size={16} />
          <Trans>Réessayer</Trans>
        </Button>
      ) : (
        <p className="text-sm text-fg-muted">
          <Trans>Connectez-vous à internet une première fois pour charger le catalogue.</Trans>
        </p>
      )}
    </div>
  );
}
