import { Trans, useLingui } from '@lingui/react/macro';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { Button } from '@/ui/button';

import type { LoadError } from '@/features/staff/use-staff-board';

/** Staff screens need the server: say so plainly, and that nothing is queued. */
export function OfflineNotice() {
  return (
    <p
      role="status"
      className="rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm"
      data-testid="staff-offline"
    >
      <Trans>
        Hors ligne : les écrans du personnel ont besoin d’une connexion. Les actions sont
        désactivées et rien n’est mis en attente ; la liste se recharge au retour du réseau.
      </Trans>
    </p>
  );
}

export function LoadErrorNotice({ error, onRetry }: { error: LoadError; onRetry: () => void }) {
  const { i18n } = useLingui();
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-danger/50 bg-danger/10 px-3 py-2 text-sm"
    >
      <span>
        {error.offline ? (
          <Trans>Le serveur ne répond pas.</Trans>
        ) : (
          <>
            <Trans>Impossible de charger les réservations.</Trans>{' '}
            {i18n._(bookingErrorMessage(error.code))}
          </>
        )}
      </span>
      <Button size="sm" variant="secondary" onClick={onRetry}>
        <Trans>Réessayer</Trans>
      </Button>
    </div>
  );
}
