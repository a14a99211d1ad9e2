import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, type ReactNode } from 'react';

import { bookingErrorGeneric, bookingErrorTitle } from '@/domain/booking-errors';
import { normalizePhone } from '@/domain/phone';
import { formatDateTime } from '@/domain/dates';
import { type Locale, localized } from '@/domain/locale';
import type { PriceBreakdown } from '@/domain/rows';
import { Button } from '@/ui/button';
import { cn } from '@/ui/cn';
import { EmailText } from '@/ui/email-text';
import { carIdentity } from '@/ui/car-identity';

import type { QuoteState } from '@/features/booking/booking-wizard.machine';
import { confirmSchema, type ConfirmValues } from '@/features/booking/confirm.schema';
import type { BookingDraft, WizardStep } from '@/features/booking/draft';
import { draftPeriod } from '@/features/booking/draft-request';
import { FieldError, Notice } from '@/features/booking/form-parts';
import { PriceSummary } from '@/features/booking/price-summary';
import { PriceCheck } from '@/features/booking/steps/price-check';
import { useStepForm, type StepProps } from '@/features/booking/use-step-form';
import { ReferenceText } from '@/ui/reference-text';

function Row({
  label,
  children,
  onEdit,
}: {
  label: ReactNode;
  children: ReactNode;
  onEdit?: () => void;
}) {
  return (
    // The label and its edit button share a line, the value has the full width below: at 320 px
    // a value beside its label had too little room and broke words mid-word.
    <div className="relative border-b border-line py-2 last:border-b-0">
      <dt className={cn('flex min-h-9 items-center text-sm text-fg-muted', onEdit && 'pe-24')}>
        {label}
      </dt>
      <dd className="text-sm [overflow-wrap:anywhere]">
        {children}
        {onEdit && (
          <Button
            size="sm"
            variant="ghost"
            onClick={onEdit}
            className="absolute end-0 top-2 -me-2"
            data-testid="review-edit"
          >
            <Trans>Modifier</Trans>
            {/* Named for what it edits ("Modifier Voiture"): nine of them on this screen. */}
            <span className="sr-only"> {label}</span>
          </Button>
        )}
      </dd>
    </div>
  );
}

/** Step 5: everything chosen, the final price, payment in cash and the guarantee, confirm. */
export function ReviewStep({
  draft,
  catalogue,
  messages,
  isGuest,
  price,
  serverPrice,
  quote,
  online,
  submitting,
  submitError,
  onChange,
  onBack,
  onEdit,
  onConfirm,
}: Omit<StepProps, 'onNext'> & {
  isGuest: boolean;
  price: PriceBreakdown | null;
  serverPrice: PriceBreakdown | null;
  quote: QuoteState;
  online: boolean;
  submitting: boolean;
  submitError: string | null;
  onEdit: (step: WizardStep) => void;
  onConfirm: (values: Partial<BookingDraft>) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const id = useId();
  const schema = useMemo(() => confirmSchema(messages), [messages]);
  const form = useStepForm<ConfirmValues>(
    schema,
    {
      payment_method: 'cash',
      accept_guarantee: draft.accept_guarantee as true,
    },
    onChange,
  );
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = form;

  const car = catalogue.cars.find((c) => c.id === draft.car_id);
  const period = draftPeriod(draft);
  const place = (locationId: string) =>
    localized(catalogue.locations.find((l) => l.id === locationId)?.name, locale);
  const pickup = place(draft.pickup_location_id);
  const dropoff = draft.dropoff_same ? pickup : place(draft.dropoff_location_id);
  const extras = draft.extras
    .map((code) => localized(catalogue.extras.find((e) => e.code === code)?.name, locale))
    .filter(Boolean);
  const insurance = ['civil_liability', ...draft.insurance.filter((c) => c !== 'civil_liability')]
    .map((code) => localized(catalogue.insurance.find((i) => i.code === code)?.name, locale))
    .filter(Boolean);
  const shown = serverPrice ?? price;
  const reference = draft.reference;

  return (
    <form
      noValidate
      onSubmit={handleSubmit((v) => onConfirm(v))}
      className="flex flex-col gap-6"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        <Trans>Vérification et confirmation</Trans>
      </h2>
      <p className="text-sm text-fg-muted">
        <Trans>
          Votre référence de réservation :{' '}
          <ReferenceText reference={reference} className="font-bold" />
        </Trans>
      </p>

      <dl>
        <Row label={t`Voiture`} onEdit={() => onEdit('basics')}>
          {car ? (
            <>
              <bdi>{car.name}</bdi>
              <br />
              <span className="text-fg-muted" data-testid="car-identity">
                {carIdentity(car, i18n)}
              </span>
            </>
          ) : (
            '—'
          )}
        </Row>
        <Row
          label={t({ message: 'Prise en charge', context: 'car pickup' })}
          onEdit={() => onEdit('basics')}
        >
          {period ? formatDateTime(period.start, locale) : '—'}
          <br />
          {pickup}
        </Row>
        <Row
          label={t({ message: 'Retour', context: 'car return' })}
          onEdit={() => onEdit('location')}
        >
          {period ? formatDateTime(period.end, locale) : '—'}
          <br />
          {dropoff}
        </Row>
        <Row label={t`Chauffeur`} onEdit={() => onEdit('location')}>
          {draft.driver_option === 'provided' ? t`Avec chauffeur` : t`Je conduis moi-même`}
        </Row>
        <Row label={t`Permis de conduire`} onEdit={() => onEdit('location')}>
          {draft.licence ? <bdi>{draft.licence.name}</bdi> : '—'}
        </Row>
        {draft.from_abroad && (
          <Row label={t`Documents de vol`} onEdit={() => onEdit('location')}>
            {draft.flight_document ? <bdi>{draft.flight_document.name}</bdi> : '—'}
          </Row>
        )}
        <Row label={t`Services`} onEdit={() => onEdit('services')}>
          {extras.length > 0 ? extras.join(', ') : t`Aucun`}
        </Row>
        <Row label={t`Assurance`} onEdit={() => onEdit('services')}>
          {insurance.join(', ')}
        </Row>
        {draft.additional_requests.trim() && (
          <Row label={t`Demandes supplémentaires`} onEdit={() => onEdit('services')}>
            <span className="block whitespace-pre-line" dir="auto">
              {draft.additional_requests}
            </span>
          </Row>
        )}
        {isGuest && (
          <Row label={t`Vos coordonnées`} onEdit={() => onEdit('services')}>
            <bdi>{draft.guest_name}</bdi>
            <br />
            {/* As it is kept and sent: "0555 12 34 56" reads +213555123456 (src/domain/phone.ts). */}
            <span dir="ltr">{normalizePhone(draft.guest_phone) ?? draft.guest_phone}</span>
            <br />
            <EmailText email={draft.guest_email} />
          </Row>
        )}
      </dl>

      {shown && <PriceSummary price={shown} />}
      <PriceCheck local={price} server={serverPrice} quote={quote} online={online} />

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Mode de paiement</Trans>
        </legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            value="cash"
            className="size-4"
            {...register('payment_method')}
            defaultChecked
          />
          <Trans>Espèces, à la prise en charge de la voiture</Trans>
        </label>
        <p className="text-sm text-fg-muted">
          <Trans>
            Garantie : présentez une pièce d’identité originale valide et versez la caution en
            espèces à la prise en charge. La caution vous est intégralement rendue au retour de la
            voiture.
          </Trans>
        </p>
        <label className="mt-1 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            aria-invalid={errors.accept_guarantee ? true : undefined}
            aria-describedby={errors.accept_guarantee ? `${id}-guarantee-error` : undefined}
            data-testid="accept-guarantee"
            {...register('accept_guarantee')}
          />
          <Trans>
            J’ai compris : je paierai en espèces et présenterai ma pièce d’identité originale et la
            caution.
          </Trans>
        </label>
        <FieldError id={`${id}-guarantee-error`} message={errors.accept_guarantee?.message} />
      </fieldset>

      {submitError && (
        <Notice tone="danger" live>
          <strong>{i18n._(bookingErrorTitle)}</strong> — {i18n._(bookingErrorGeneric)}
        </Notice>
      )}

      <div className="flex flex-wrap justify-between gap-3">
        <Button variant="secondary" onClick={() => onBack(getValues())} data-testid="wizard-back">
          <Trans context="go back">Retour</Trans>
        </Button>
        <Button type="submit" loading={submitting} data-testid="wizard-confirm">
          <Trans>Confirmer la réservation</Trans>
        </Button>
      </div>
    </form>
  );
}
