import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';

import type { CarFeature } from '@/domain/rows';
import { Button } from '@/ui/button';
import { useCarCodeLabels } from '@/ui/car-codes';

import {
  BODIES,
  DRIVES,
  EXTERIOR_COLORS,
  FEATURES,
  FUELS,
  INTERIOR_COLORS,
  TRANSMISSIONS,
  carFormProblems,
  type CarField,
  type CarForm,
  type FieldProblem,
} from '@/features/staff/fleet';

const problemText: Record<FieldProblem, MessageDescriptor> = {
  required: msg`Champ obligatoire.`,
  too_long: msg`Trop long.`,
  out_of_range: msg`Valeur hors des limites.`,
};

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger';
/* eslint-enable lingui/no-unlocalized-strings */

type FieldProps = {
  id: string;
  label: ReactNode;
  problem?: FieldProblem;
  children: (props: {
    id: string;
    'aria-invalid'?: true;
    'aria-describedby'?: string;
  }) => ReactNode;
};

function Field({ id, label, problem, children }: FieldProps) {
  const { i18n } = useLingui();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        ...(problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {}),
      })}
      {problem && (
        <p id={`${id}-problem`} className="text-xs text-danger">
          {i18n._(problemText[problem])}
        </p>
      )}
    </div>
  );
}

/** Every catalogue field of a car (fr/en/ar description, price, deposit); checked as SQL does. */
export function CarFormFields({
  initial,
  busy,
  serverError,
  onSubmit,
  onCancel,
}: {
  initial: CarForm;
  busy: boolean;
  serverError: string | null;
  onSubmit: (form: CarForm) => void;
  onCancel: () => void;
}) {
  const labels = useCarCodeLabels();
  const id = useId();
  const [form, setForm] = useState(initial);
  const [problems, setProblems] = useState<Partial<Record<CarField, FieldProblem>>>({});
  const set = <K extends keyof CarForm>(key: K, value: CarForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const text = (key: 'name' | 'make' | 'model' | 'engine', label: ReactNode) => (
    <Field id={`${id}-${key}`} label={label} problem={problems[key]}>
      {(p) => (
        <input
          {...p}
          value={form[key]}
          onChange={(e) => set(key, e.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
  const number = (key: keyof CarForm, label: ReactNode) => (
    <Field id={`${id}-${key}`} label={label} problem={problems[key]}>
      {(p) => (
        <input
          {...p}
          type="number"
          inputMode="numeric"
          value={Number.isFinite(form[key] as number) ? (form[key] as number) : ''}
          onChange={(e) => set(key, e.target.valueAsNumber as never)}
          className={inputClass}
        />
      )}
    </Field>
  );
  const choice = (
    key: 'body' | 'fuel' | 'drive' | 'transmission' | 'exterior_color' | 'interior_color',
    codes: readonly string[],
    word: (code: string) => string,
    label: ReactNode,
  ) => (
    <Field id={`${id}-${key}`} label={label}>
      {(p) => (
        <select
          {...p}
          value={form[key]}
          onChange={(e) => set(key, e.target.value)}
          className={inputClass}
        >
          {codes.map((code) => (
            <option key={code} value={code}>
              {word(code)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const description = (lang: 'fr' | 'en' | 'ar', label: ReactNode) => (
    <Field id={`${id}-d-${lang}`} label={label} problem={problems[`description.${lang}`]}>
      {(p) => (
        <textarea
          {...p}
          lang={lang}
          dir={lang === 'ar' ? 'rtl' : 'ltr'}
          rows={3}
          value={form.description[lang]}
          onChange={(e) => set('description', { ...form.description, [lang]: e.target.value })}
          className="w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger"
        />
      )}
    </Field>
  );

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      data-testid="car-form"
      onSubmit={(event) => {
        event.preventDefault();
        const found = carFormProblems(form);
        setProblems(found);
        if (Object.keys(found).length === 0) onSubmit(form);
      }}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {text('name', <Trans>Nom affiché</Trans>)}
        {text('make', <Trans>Marque</Trans>)}
        {text('model', <Trans>Modèle</Trans>)}
        {number('year', <Trans>Année</Trans>)}
        {text('engine', <Trans>Moteur</Trans>)}
        {number('mileage_km', <Trans>Kilométrage (km)</Trans>)}
        {choice('body', BODIES, labels.body, <Trans>Carrosserie</Trans>)}
        {choice('fuel', FUELS, labels.fuel, <Trans>Carburant</Trans>)}
        {choice('transmission', TRANSMISSIONS, labels.transmission, <Trans>Boîte</Trans>)}
        {choice('drive', DRIVES, labels.drive, <Trans>Transmission</Trans>)}
        {choice('exterior_color', EXTERIOR_COLORS, labels.color, <Trans>Couleur</Trans>)}
        {choice('interior_color', INTERIOR_COLORS, labels.color, <Trans>Intérieur</Trans>)}
        {number('seats', <Trans>Sièges</Trans>)}
        {number('doors', <Trans>Portes</Trans>)}
        {number('passengers', <Trans>Passagers</Trans>)}
        {number('daily_rate_dzd', <Trans>Prix par jour (DZD)</Trans>)}
        {number('deposit_dzd', <Trans>Caution (DZD)</Trans>)}
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">
          <Trans>Équipements</Trans>
        </legend>
        <div className="flex flex-wrap gap-3">
          {FEATURES.map((code: CarFeature) => (
            <label key={code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={form.features.includes(code)}
                onChange={(e) =>
                  set(
                    'features',
                    e.target.checked
                      ? [...form.features, code]
                      : form.features.filter((f) => f !== code),
                  )
                }
                className="size-5 focus-visible:outline-2 focus-visible:outline-ring"
              />
              {labels.feature(code)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        {description('fr', <Trans>Description en français</Trans>)}
        {description('en', <Trans>Description en anglais</Trans>)}
        {description('ar', <Trans>Description en arabe</Trans>)}
      </div>
      {serverError && (
        <p role="alert" className="text-sm text-danger" data-testid="car-form-error">
          {serverError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          <Trans>Annuler</Trans>
        </Button>
        <Button type="submit" loading={busy} data-testid="save-car">
          <Trans>Enregistrer</Trans>
        </Button>
      </div>
    </form>
  );
}
