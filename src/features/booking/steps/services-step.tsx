import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, useState } from 'react';

import { type Locale, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { cleanTypedText, hadHiddenCharacters } from '@/domain/typed-text';
import { Button } from '@/ui/button';

import { describedBy, Field, inputClassName } from '@/features/booking/form-parts';
import {
  extraCodes,
  insuranceCodes,
  MAX_ADDITIONAL_REQUESTS,
  servicesSchema,
  type ServicesValues,
} from '@/features/booking/services.schema';
import { useStepForm, type StepProps } from '@/features/booking/use-step-form';

/** Step 4: extras, insurance, additional requests and, without an account, the contact. */
export function ServicesStep({
  draft,
  catalogue,
  messages,
  isGuest,
  onChange,
  onNext,
  onBack,
}: StepProps & { isGuest: boolean }) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const id = useId();
  const schema = useMemo(() => servicesSchema(messages, { isGuest }), [messages, isGuest]);
  const form = useStepForm<ServicesValues>(
    schema,
    {
      extras: draft.extras as ServicesValues['extras'],
      insurance: draft.insurance as ServicesValues['insurance'],
      additional_requests: draft.additional_requests,
      guest_name: draft.guest_name,
      guest_phone: draft.guest_phone,
      guest_email: draft.guest_email,
    },
    onChange,
  );
  const {
    register,
    handleSubmit,
    watch,
    getValues,
    setValue,
    formState: { errors },
  } = form;
  // Invisible marks pasted with a name, phone or e-mail are removed as the field is left, and the
  // form says so (the server refuses them: src/domain/typed-text.ts).
  const [cleaned, setCleaned] = useState(false);
  const cleanOnBlur = (field: 'guest_name' | 'guest_phone' | 'guest_email') => ({
    onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
      const value = event.target.value;
      if (!hadHiddenCharacters(value)) return;
      setValue(field, cleanTypedText(value), { shouldDirty: true, shouldValidate: true });
      setCleaned(true);
    },
  });
  const requests = watch('additional_requests') ?? '';
  const count = requests.length;
  const max = MAX_ADDITIONAL_REQUESTS;

  const extras = extraCodes
    .map((code) => catalogue.extras.find((e) => e.code === code))
    .filter((e) => e && (e.active || draft.extras.includes(e.code)));
  const insurance = insuranceCodes
    .map((code) => catalogue.insurance.find((i) => i.code === code))
    .filter((i) => i && (i.active || i.included || draft.insurance.includes(i.code)));

  return (
    <form
      noValidate
      onSubmit={handleSubmit((v) => onNext(v))}
      className="flex flex-col gap-6"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        <Trans>Services supplémentaires</Trans>
      </h2>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Services</Trans>
        </legend>
        {extras.map((extra) => {
          if (!extra) return null;
          const price = formatDzd(extra.price_dzd, locale);
          return (
            <label key={extra.code} className="flex items-center justify-between gap-3 text-sm">
              <span className="flex items-center gap-2">
                <input
                  type="checkbox"
                  value={extra.code}
                  className="size-4"
                  {...register('extras')}
                />
                {localized(extra.name, locale)}
              </span>
              <span className="text-fg-muted tabular-nums">
                {extra.per === 'day' ? t`${price} / jour` : t`${price} / location`}
              </span>
            </label>
          );
        })}
      </fieldset>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Assurance</Trans>
        </legend>
        {insurance.map((option) => {
          if (!option) return null;
          const price = formatDzd(option.price_dzd_per_day, locale);
          return (
            <label key={option.code} className="flex items-center justify-between gap-3 text-sm">
              <span className="flex items-center gap-2">
                {option.included ? (
                  <input type="checkbox" checked disabled readOnly className="size-4" />
                ) : (
                  <input
                    type="checkbox"
                    value={option.code}
                    className="size-4"
                    {...register('insurance')}
                  />
                )}
                {localized(option.name, locale)}
              </span>
              <span className="text-fg-muted tabular-nums">
                {option.included ? t`Incluse` : t`${price} / jour`}
              </span>
            </label>
          );
        })}
      </fieldset>

      <Field
        id={`${id}-requests`}
        label={t`Demandes supplémentaires`}
        error={errors.additional_requests?.message}
      >
        <textarea
          id={`${id}-requests`}
          rows={4}
          maxLength={max + 100}
          className={`${inputClassName} h-auto py-2`}
          {...describedBy(`${id}-requests`, errors.additional_requests?.message)}
          {...register('additional_requests')}
        />
        <p
          className={
            count > max ? 'text-end text-xs text-danger' : 'text-end text-xs text-fg-muted'
          }
          aria-live="polite"
          data-testid="requests-counter"
        >
          <Trans>
            {count} / {max} caractères
          </Trans>
        </p>
      </Field>

      {isGuest && (
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Vos coordonnées</Trans>
          </legend>
          <p className="text-sm text-fg-muted">
            <Trans>
              Sans compte, nous vous contactons avec ces informations ; elles vous servent aussi à
              retrouver votre réservation.
            </Trans>
          </p>
          <Field id={`${id}-name`} label={t`Nom complet`} error={errors.guest_name?.message}>
            <input
              id={`${id}-name`}
              autoComplete="name"
              className={inputClassName}
              {...describedBy(`${id}-name`, errors.guest_name?.message)}
              {...register('guest_name', cleanOnBlur('guest_name'))}
            />
          </Field>
          <Field
            id={`${id}-phone`}
            label={t`Numéro de téléphone`}
            error={errors.guest_phone?.message}
            hint={t`Avec l’indicatif du pays, par exemple +213555123456 ou +33612345678.`}
          >
            <input
              id={`${id}-phone`}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              dir="ltr"
              placeholder="+213555123456"
              className={inputClassName}
              {...describedBy(`${id}-phone`, errors.guest_phone?.message, true)}
              {...register('guest_phone', cleanOnBlur('guest_phone'))}
            />
          </Field>
          <Field id={`${id}-email`} label={t`Adresse e-mail`} error={errors.guest_email?.message}>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="email"
              dir="ltr"
              className={inputClassName}
              {...describedBy(`${id}-email`, errors.guest_email?.message)}
              {...register('guest_email', cleanOnBlur('guest_email'))}
            />
          </Field>
          {cleaned && (
            <p className="text-sm text-fg-muted" role="status" data-testid="hidden-cleaned">
              <Trans>
                Des caractères invisibles (marques de sens d’écriture, espaces sans largeur) copiés
                avec vos coordonnées ont été retirés : vérifiez-les.
              </Trans>
            </p>
          )}
        </fieldset>
      )}

      <div className="flex flex-wrap justify-between gap-3">
        <Button variant="secondary" onClick={() => onBack(getValues())} data-testid="wizard-back">
          <Trans context="go back">Retour</Trans>
        </Button>
        <Button type="submit" data-testid="wizard-next">
          <Trans>Suivant</Trans>
        </Button>
      </div>
    </form>
  );
}
