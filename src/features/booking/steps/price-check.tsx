import { Trans, useLingui } from '@lingui/react/macro';

import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { samePrice } from '@/domain/pricing';
import type { PriceBreakdown } from '@/domain/rows';
import { Spinner } from '@/ui/spinner';

import type { QuoteState } from '@/features/booking/booking-wizard.machine';
import { Notice } from '@/features/booking/form-parts';

/** What the server said about the price: confirmed, changed, or not asked (offline). */
export function PriceCheck({
  local,
  server,
  quote,
  online,
}: {
  local: PriceBreakdown | null;
  server: PriceBreakdown | null;
  quote: QuoteState;
  online: boolean;
}) {
  const { i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  if (quote === 'checking') {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner size="sm" />
        <Trans>Vérification du prix auprès du serveur…</Trans>
      </p>
    );
  }
  if (quote === 'confirmed' && server && local) {
    if (samePrice(server, local)) {
      return (
        <Notice tone="success" live>
          <span data-testid="price-confirmed">
            <Trans>
              Prix vérifié auprès du serveur. La disponibilité de la voiture est vérifiée à l’envoi.
            </Trans>
          </span>
        </Notice>
      );
    }
    const before = formatDzd(local.total, locale);
    const after = formatDzd(server.total, locale);
    return (
      <Notice tone="warning" live>
        <span data-testid="price-changed">
          <Trans>
            Le prix a changé depuis la dernière mise à jour de cet appareil : {after} au lieu de{' '}
            {before}. C’est le prix du serveur qui s’applique.
          </Trans>
        </span>
      </Notice>
    );
  }
  return (
    <Notice tone="info">
      {online ? (
        <Trans>Prix calculé sur cet appareil ; le serveur le vérifie à l’envoi.</Trans>
      ) : (
        <Trans>
          Hors ligne : prix calculé sur cet appareil avec les tarifs enregistrés. Le serveur le
          confirmera à l’envoi de la réservation.
        </Trans>
      )}
    </Notice>
  );
}
