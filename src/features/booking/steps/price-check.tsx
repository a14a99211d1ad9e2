import { Trans, useLingui } from '@lingui/react/macro';

import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { samePrice } from '@/domain/pricing';
import type { PriceBreakdown } from '@/domain/rows';
import { Spinner } from '@/ui/spinner';

import type { QuoteState } from '@/features/booking/booking-wizard.machine';
import { Notice } from '@/features/booking/form-parts';

type Shown = 'checking' | 'confirmed' | 'changed' | 'estimate';

/**
 * What the server said about the price: confirmed, changed, or not asked (offline).
 *
 * Online, the answer replaces "checking…" while the traveller reaches for the guarantee box and
 * the confirm button below it. So the messages it can turn into are laid out unseen in the same
 * grid cell: the block is as tall as the tallest from the start, and the answer moves nothing
 * (it pushed the box and the button down 58 px at 390 px: a tap landed beside the box).
 */
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
  const shown: Shown =
    quote === 'checking'
      ? 'checking'
      : quote === 'confirmed' && server && local
        ? samePrice(server, local)
          ? 'confirmed'
          : 'changed'
        : 'estimate';
  const current = (
    <PriceMessage shown={shown} local={local} server={server} online={online} placeholder={false} />
  );
  if (!online) return current;
  return (
    <div className="grid">
      <div className="[grid-area:1/1]">{current}</div>
      {(['checking', 'confirmed', 'changed', 'estimate'] as const)
        .filter((other) => other !== shown)
        .map((other) => (
          <div key={other} className="invisible [grid-area:1/1]" aria-hidden="true">
            <PriceMessage shown={other} local={local} server={server} online placeholder />
          </div>
        ))}
    </div>
  );
}

/** One message; a `placeholder` (unseen, only to hold its space) has no test id and no live role. */
function PriceMessage({
  shown,
  local,
  server,
  online,
  placeholder,
}: {
  shown: Shown;
  local: PriceBreakdown | null;
  server: PriceBreakdown | null;
  online: boolean;
  placeholder: boolean;
}) {
  const { i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const live = !placeholder;
  if (shown === 'checking') {
    return (
      <p
        className="flex items-center gap-2 text-sm text-fg-muted"
        role={live ? 'status' : undefined}
      >
        <Spinner size="sm" />
        <Trans>Vérification du prix auprès du serveur…</Trans>
      </p>
    );
  }
  if (shown === 'confirmed') {
    return (
      <Notice tone="success" live={live}>
        <span data-testid={placeholder ? undefined : 'price-confirmed'}>
          <Trans>
            Prix vérifié auprès du serveur. La disponibilité de la voiture est vérifiée à l’envoi.
          </Trans>
        </span>
      </Notice>
    );
  }
  if (shown === 'changed') {
    const before = formatDzd(local?.total ?? 0, locale);
    const after = formatDzd(server?.total ?? local?.total ?? 0, locale);
    return (
      <Notice tone="warning" live={live}>
        <span data-testid={placeholder ? undefined : 'price-changed'}>
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
