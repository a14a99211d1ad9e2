import { Trans, useLingui } from '@lingui/react/macro';

import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import type { PriceBreakdown } from '@/domain/rows';

/** The spec's price breakdown: days, base, services, insurance, driver, fees, totals, deposit. */
export function PriceSummary({ price }: { price: PriceBreakdown }) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const money = (n: number) => formatDzd(n, locale);
  const days = price.days;
  const deposit = money(price.deposit);
  const rows: [string, number, string][] = [
    [t`Prix de base`, price.base, 'base'],
    [t`Services supplémentaires`, price.extras_total, 'extras_total'],
    [t`Assurance`, price.insurance_total, 'insurance_total'],
    [t`Chauffeur`, price.driver_total, 'driver_total'],
    [t`Frais de livraison (prise en charge)`, price.pickup_fee, 'pickup_fee'],
    [t`Frais de livraison (retour)`, price.dropoff_fee, 'dropoff_fee'],
  ];
  return (
    <div className="flex flex-col gap-3" data-testid="price-summary">
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt className="text-fg-muted">
          <Trans>Nombre de jours</Trans>
        </dt>
        <dd className="text-end tabular-nums" data-testid="price-days">
          {days}
        </dd>
        {rows.map(([label, amount, key]) => (
          <div key={key} className="contents">
            <dt className="text-fg-muted">{label}</dt>
            <dd className="text-end tabular-nums" data-testid={`price-${key}`}>
              {money(amount)}
            </dd>
          </div>
        ))}
        <dt className="border-t border-line pt-2 font-medium">
          <Trans>Sous-total</Trans>
        </dt>
        <dd className="border-t border-line pt-2 text-end font-medium tabular-nums">
          {money(price.subtotal)}
        </dd>
        <dt className="text-base font-semibold">
          <Trans>Total à payer à la prise en charge</Trans>
        </dt>
        <dd className="text-end text-base font-semibold tabular-nums" data-testid="price-total">
          {money(price.total)}
        </dd>
      </dl>
      <p className="rounded-lg bg-muted px-3 py-2 text-sm">
        <Trans>
          Caution remboursable : <strong className="tabular-nums">{deposit}</strong>, en espèces,
          avec une pièce d’identité originale. Elle vous est rendue au retour de la voiture.
        </Trans>
      </p>
    </div>
  );
}
