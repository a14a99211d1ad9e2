import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useState } from 'react';

import { busyOverlaps } from '@/domain/availability';
import { algiersToday, formatDateTime } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { Button } from '@/ui/button';
import { carIdentity } from '@/ui/car-identity';

import { basicsSchema, type BasicsValues } from '@/features/booking/basics.schema';
import { availableCars } from '@/features/booking/booking-data';
import { draftPeriod } from '@/features/booking/draft-request';
import { describedBy, Field, inputClassName, Notice } from '@/features/booking/form-parts';
import { useStepForm, type StepProps } from '@/features/booking/use-step-form';

/** Step 1: the car, and when it is picked up and returned (Algiers time). */
export function BasicsStep({
  draft,
  catalogue,
  messages,
  onChange,
  onNext,
}: Omit<StepProps, 'onBack'>) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const id = useId();
  const horizon = catalogue?.settings?.booking_horizon_days;
  const schema = useMemo(() => basicsSchema(messages, Date.now, horizon), [messages, horizon]);
  const form = useStepForm<BasicsValues>(
    schema,
    {
      car_id: draft.car_id,
      start_date: draft.start_date,
      start_time: draft.start_time,
      end_date: draft.end_date,
      end_time: draft.end_time,
    },
    onChange,
  );
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    getValues,
    getFieldState,
    formState: { errors },
  } = form;
  const values = watch();
  const cars = catalogue.cars.filter((c) => c.active || c.id === values.car_id);
  const car = catalogue.cars.find((c) => c.id === values.car_id);
  // The car a link or the saved draft named, when the device did not have it as the form was
  // drawn (a first visit, the catalogue's first page only): the select had no option for it and
  // showed "no car" (some browsers' forms read it so). Once its option exists the select is set
  // again, unless the traveller has used the field since. A car known from the start needs none.
  const [missing] = useState(() =>
    catalogue.cars.some((c) => c.id === draft.car_id) ? null : draft.car_id,
  );
  const arrived = !!missing && catalogue.cars.some((c) => c.id === missing);
  useEffect(() => {
    if (!arrived || getFieldState('car_id').isTouched) return;
    setValue('car_id', getValues('car_id') || missing!);
  }, [arrived, missing, getFieldState, getValues, setValue]);
  const period = draftPeriod(values);
  const clashes =
    car && period ? busyOverlaps(catalogue.busy, car.id, period.start, period.end) : [];
  const alternatives =
    clashes.length > 0 && period
      ? availableCars(catalogue, period.start, period.end, car?.id).slice(0, 3)
      : [];
  const today = algiersToday();

  return (
    <form
      noValidate
      onSubmit={handleSubmit((v) => onNext(v))}
      className="flex flex-col gap-5"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        <Trans>Informations de base</Trans>
      </h2>

      <Field id={`${id}-car`} label={t`Voiture`} error={errors.car_id?.message}>
        <select
          id={`${id}-car`}
          className={inputClassName}
          {...describedBy(`${id}-car`, errors.car_id?.message)}
          {...register('car_id')}
        >
          <option value="">{t`Choisissez une voiture`}</option>
          {cars.map((c) => {
            const rate = formatDzd(c.daily_rate_dzd, locale);
            const name = c.name;
            // Year, fuel and gearbox: two cars of one name are told apart.
            const identity = carIdentity(c, i18n);
            return (
              <option key={c.id} value={c.id}>
                {t`${name} (${identity}) — ${rate} / jour`}
              </option>
            );
          })}
        </select>
      </Field>

      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <legend className="sr-only">
          <Trans>Dates et heures (heure d’Alger)</Trans>
        </legend>
        <Field
          id={`${id}-sd`}
          label={t`Date de prise en charge`}
          error={errors.start_date?.message}
        >
          <input
            id={`${id}-sd`}
            type="date"
            min={today}
            className={inputClassName}
            {...describedBy(`${id}-sd`, errors.start_date?.message)}
            {...register('start_date')}
          />
        </Field>
        <Field
          id={`${id}-st`}
          label={t`Heure de prise en charge`}
          error={errors.start_time?.message}
        >
          <input
            id={`${id}-st`}
            type="time"
            className={inputClassName}
            {...describedBy(`${id}-st`, errors.start_time?.message)}
            {...register('start_time')}
          />
        </Field>
        <Field id={`${id}-ed`} label={t`Date de retour`} error={errors.end_date?.message}>
          <input
            id={`${id}-ed`}
            type="date"
            min={values.start_date || today}
            className={inputClassName}
            {...describedBy(`${id}-ed`, errors.end_date?.message)}
            {...register('end_date')}
          />
        </Field>
        <Field id={`${id}-et`} label={t`Heure de retour`} error={errors.end_time?.message}>
          <input
            id={`${id}-et`}
            type="time"
            className={inputClassName}
            {...describedBy(`${id}-et`, errors.end_time?.message)}
            {...register('end_time')}
          />
        </Field>
      </fieldset>
      <p className="text-xs text-fg-muted">
        <Trans>Les heures sont celles d’Alger (GMT+1).</Trans>
      </p>

      {clashes.length > 0 && car && (
        <Notice tone="warning" live>
          <p>
            <Trans>
              Cette voiture est déjà réservée sur une partie de ces dates (dernières données de cet
              appareil) : une réservation pour ces dates serait refusée. Choisissez d’autres dates
              ou une voiture libre.
            </Trans>
          </p>
          <ul className="mt-1 list-inside list-disc">
            {clashes.map((b) => {
              const from = formatDateTime(b.start_at, locale);
              const to = formatDateTime(b.end_at, locale);
              return <li key={b.key}>{t`Du ${from} au ${to}`}</li>;
            })}
          </ul>
          {alternatives.length > 0 && (
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <span>
                <Trans>Libres sur ces dates :</Trans>
              </span>
              {alternatives.map((alt) => (
                <Button
                  key={alt.id}
                  size="sm"
                  variant="secondary"
                  onClick={() => setValue('car_id', alt.id, { shouldValidate: true })}
                >
                  <bdi>{alt.name}</bdi>
                </Button>
              ))}
            </div>
          )}
        </Notice>
      )}

      <div className="flex justify-end">
        {clashes.length > 0 && car ? (
          <Button type="submit" variant="secondary" data-testid="wizard-next" data-clash="true">
            <Trans>Continuer quand même</Trans>
          </Button>
        ) : (
          <Button type="submit" data-testid="wizard-next">
            <Trans>Suivant</Trans>
          </Button>
        )}
      </div>
    </form>
  );
}
