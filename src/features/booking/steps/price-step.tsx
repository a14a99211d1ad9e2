import { Trans } from '@lingui/react/macro';
import { useId } from 'react';

import type { PriceBreakdown } from '@/domain/rows';
import { Button } from '@/ui/button';

import type { QuoteState } from '@/features/booking/booking-wizard.machine';
import { Notice } from '@/features/booking/form-parts';
import { PriceSummary } from '@/features/booking/price-summary';
import { PriceCheck } from '@/features/booking/steps/price-check';
import type { ValidationMessages } from '@/features/booking/validation-messages';

/** Step 2: the price of the car for these dates, before places and options are chosen. */
export function PriceStep({
  price,
  serverPrice,
  quote,
  online,
  messages,
  onBack,
  onNext,
}: {
  price: PriceBreakdown | null;
  serverPrice: PriceBreakdown | null;
  quote: QuoteState;
  online: boolean;
  messages: ValidationMessages;
  onBack: () => void;
  onNext: () => void;
}) {
  const id = useId();
  return (
    <section className="flex flex-col gap-5" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        <Trans>Vérification du prix</Trans>
      </h2>
      {price ? (
        <>
          <PriceSummary price={serverPrice ?? price} />
          <PriceCheck local={price} server={serverPrice} quote={quote} online={online} />
          <p className="text-sm text-fg-muted">
            <Trans>
              Les frais de livraison, le chauffeur, les services et les assurances choisis ensuite
              s’ajoutent à ce prix ; le total final est affiché avant la confirmation.
            </Trans>
          </p>
        </>
      ) : (
        <Notice tone="warning" live>
          {messages.priceUnavailable}
        </Notice>
      )}
      <div className="flex flex-wrap justify-between gap-3">
        <Button variant="secondary" onClick={onBack} data-testid="wizard-back">
          <Trans context="go back">Retour</Trans>
        </Button>
        <Button onClick={onNext} disabled={!price} data-testid="wizard-next">
          <Trans>Suivant</Trans>
        </Button>
      </div>
    </section>
  );
}
