import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useRef, useState } from 'react';

import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { PICKER_ACCEPT, prepareUpload, type PrepareError } from '@/infra/image-prepare';
import { isolate } from '@/ui/bidi';
import { Button, buttonClass } from '@/ui/button';
import { DocumentIcon } from '@/ui/icons';
import { Spinner } from '@/ui/spinner';

import type { DraftFile } from '@/features/booking/draft';
import { readDraftFile, removeDraftFile, saveDraftFile } from '@/features/booking/draft-store';
import { describedBy, Field, FieldError, inputClassName } from '@/features/booking/form-parts';
import {
  hoursContext,
  locationSchema,
  type LocationValues,
} from '@/features/booking/location.schema';
import { PlaceHoursNote, PlaceOptions } from '@/features/booking/place-hours';
import { useStepForm, type StepProps } from '@/features/booking/use-step-form';

function formatSize(bytes: number, locale: Locale): string {
  const mb = bytes / (1024 * 1024);
  return new Intl.NumberFormat(locale === 'ar' ? 'ar-DZ-u-nu-latn' : locale, {
    style: 'unit',
    unit: mb >= 1 ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: 1,
  }).format(mb >= 1 ? mb : bytes / 1024);
}

/**
 * The attached file as the traveller knows it: a thumbnail of a picture (from the copy kept on
 * the device), a document icon for a PDF.
 */
function FileThumbnail({ file }: { file: DraftFile }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (file.type === 'application/pdf') return;
    let objectUrl: string | null = null;
    let live = true;
    void readDraftFile(file).then((blob) => {
      if (!live || !blob) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file]);
  return url ? (
    <img
      src={url}
      alt=""
      className="size-12 shrink-0 rounded-md border border-line object-cover"
      data-testid="file-thumbnail"
    />
  ) : (
    <span
      className="flex size-12 shrink-0 items-center justify-center rounded-md bg-muted text-fg-muted"
      data-testid="file-icon"
    >
      <DocumentIcon size={24} />
    </span>
  );
}

/**
 * A file picker that prepares the file on the device (type from bytes, HEIC, size). The native
 * input is visually hidden (its "Choose file / No file chosen" told nothing once a file was
 * attached) and driven by a button-like label; it keeps the focus, the name and the error state.
 * A refused file leaves the attached one in place, and says so under the error.
 */
function FilePicker({
  id,
  label,
  hint,
  value,
  error,
  onPick,
  onRemove,
  testId,
}: {
  id: string;
  label: string;
  hint: string;
  value: DraftFile | null;
  error?: string;
  onPick: (file: File) => Promise<void>;
  onRemove: () => void;
  testId: string;
}) {
  const { i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const [busy, setBusy] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {value ? (
        <div
          className="flex flex-wrap items-center gap-3 rounded-lg border border-line p-2 text-sm"
          data-testid={`${testId}-attached`}
        >
          {/* Keyed: another file starts without the previous one's picture. */}
          <FileThumbnail key={value.id} file={value} />
          <span className="min-w-0 flex-1 truncate" data-testid={`${testId}-name`}>
            {isolate(value.name)} · {formatSize(value.size, locale)}
          </span>
          <Button size="sm" variant="ghost" onClick={onRemove}>
            <Trans>Retirer</Trans>
          </Button>
        </div>
      ) : null}
      <input
        id={id}
        type="file"
        accept={PICKER_ACCEPT}
        data-testid={testId}
        className="peer sr-only"
        disabled={busy}
        {...describedBy(id, error, true)}
        onChange={async (event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          setBusy(true);
          try {
            await onPick(file);
          } finally {
            setBusy(false);
            input.value = '';
          }
        }}
      />
      <label
        htmlFor={id}
        className={buttonClass({
          variant: 'secondary',
          size: 'sm',
          className:
            'cursor-pointer self-start peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:cursor-wait peer-disabled:opacity-60',
        })}
        data-testid={`${testId}-choose`}
      >
        {value ? <Trans>Remplacer le fichier</Trans> : <Trans>Choisir un fichier</Trans>}
      </label>
      {busy ? (
        <p className="flex items-center gap-2 text-xs text-fg-muted" role="status">
          <Spinner size="sm" />
          <Trans>Préparation du fichier…</Trans>
        </p>
      ) : (
        !error && (
          <p id={`${id}-hint`} className="text-xs text-fg-muted">
            {hint}
          </p>
        )
      )}
      <FieldError id={`${id}-error`} message={error} />
      {error && value && (
        <p className="text-xs text-fg-muted" data-testid={`${testId}-kept`}>
          <Trans>Le fichier joint ci-dessus est conservé.</Trans>
        </p>
      )}
    </div>
  );
}

/** Step 3: where the car is picked up and returned, the driver, the licence, flight documents. */
export function LocationStep({ draft, catalogue, messages, onChange, onNext, onBack }: StepProps) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const id = useId();
  const hours = useMemo(
    () => hoursContext(draft, catalogue),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dates, not the whole draft
    [draft.start_date, draft.start_time, draft.end_date, draft.end_time, catalogue],
  );
  const schema = useMemo(() => locationSchema(messages, hours), [messages, hours]);
  const form = useStepForm<LocationValues>(
    schema,
    {
      pickup_location_id: draft.pickup_location_id,
      dropoff_same: draft.dropoff_same,
      dropoff_location_id: draft.dropoff_location_id,
      driver_option: draft.driver_option as LocationValues['driver_option'],
      licence: draft.licence,
      from_abroad: draft.from_abroad,
      flight_document: draft.flight_document,
    },
    onChange,
  );
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    setError,
    getValues,
    formState: { errors },
  } = form;
  const values = watch();
  const locations = catalogue.locations.filter(
    (l) => l.active || l.id === values.pickup_location_id || l.id === values.dropoff_location_id,
  );
  const pickupPlace = catalogue.locations.find((l) => l.id === values.pickup_location_id);
  const dropoffPlace = values.dropoff_same
    ? pickupPlace
    : catalogue.locations.find((l) => l.id === values.dropoff_location_id);
  /** A time picked among the place's hours: into the draft, and the places checked again. */
  const changeTime = (field: 'start_time' | 'end_time', time: string) => {
    onChange({ [field]: time });
    setTimeout(() => void form.trigger(['pickup_location_id', 'dropoff_location_id']), 0);
  };
  const driverRate = catalogue.settings
    ? formatDzd(catalogue.settings.driver_per_day_dzd, locale)
    : null;

  const fileError = (code: PrepareError) =>
    code === 'file_too_large'
      ? messages.fileTooLarge
      : code === 'unsupported_file_type'
        ? messages.unsupportedFileType
        : messages.conversionFailed;

  /** Files being prepared: "Next" waits for them (tapped meanwhile, it flashed "required"). */
  const picking = useRef(new Set<Promise<void>>());

  function pick(field: 'licence' | 'flight_document', file: File): Promise<void> {
    const run = (async () => {
      const result = await prepareUpload(file, file.name);
      if (!result.ok) {
        setError(field, { type: 'file', message: fileError(result.error) });
        return;
      }
      const kind = field === 'licence' ? 'licence' : 'flight';
      const saved = await saveDraftFile(draft.id, kind, result.file, getValues(field));
      setValue(field, saved, { shouldValidate: true, shouldDirty: true });
    })();
    picking.current.add(run);
    return run.finally(() => picking.current.delete(run));
  }

  const next = handleSubmit((v) => onNext(v));
  /** A tap while waiting for a file adds nothing: one wait, one step forward. */
  const waiting = useRef(false);

  function remove(field: 'licence' | 'flight_document') {
    const current = getValues(field);
    if (current) void removeDraftFile(current);
    setValue(field, null, { shouldValidate: true, shouldDirty: true });
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // A failed pick has already said why under its field: the step is checked either way.
        if (waiting.current) return;
        waiting.current = true;
        void Promise.allSettled(picking.current)
          .then(() => next())
          .finally(() => (waiting.current = false));
      }}
      className="flex flex-col gap-5"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        <Trans>Lieu et permis</Trans>
      </h2>

      <Field
        id={`${id}-pickup`}
        label={t`Lieu de prise en charge`}
        error={errors.pickup_location_id?.message}
      >
        <select
          id={`${id}-pickup`}
          className={inputClassName}
          {...describedBy(`${id}-pickup`, errors.pickup_location_id?.message)}
          {...register('pickup_location_id')}
        >
          <option value="">{t`Choisissez une ville ou un aéroport`}</option>
          <PlaceOptions locations={locations} locale={locale} />
        </select>
      </Field>
      {pickupPlace && (
        <PlaceHoursNote
          place={pickupPlace}
          date={draft.start_date}
          time={draft.start_time}
          side="pickup"
          onTime={(time) => changeTime('start_time', time)}
        />
      )}

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4" {...register('dropoff_same')} />
        <Trans>Retour au même endroit</Trans>
      </label>

      {!values.dropoff_same && (
        <Field
          id={`${id}-dropoff`}
          label={t`Lieu de retour`}
          error={errors.dropoff_location_id?.message}
        >
          <select
            id={`${id}-dropoff`}
            className={inputClassName}
            {...describedBy(`${id}-dropoff`, errors.dropoff_location_id?.message)}
            {...register('dropoff_location_id')}
          >
            <option value="">{t`Choisissez une ville ou un aéroport`}</option>
            <PlaceOptions locations={locations} locale={locale} />
          </select>
        </Field>
      )}
      {dropoffPlace && (
        <PlaceHoursNote
          place={dropoffPlace}
          date={draft.end_date}
          time={draft.end_time}
          side="return"
          onTime={(time) => changeTime('end_time', time)}
        />
      )}

      <fieldset
        className="flex flex-col gap-2"
        {...describedBy(`${id}-driver`, errors.driver_option?.message)}
      >
        <legend className="mb-1 text-sm font-medium">
          <Trans>Option chauffeur</Trans>
        </legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="self" className="size-4" {...register('driver_option')} />
          <Trans>Je conduis moi-même</Trans>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="provided" className="size-4" {...register('driver_option')} />
          {driverRate ? (
            <Trans>Avec chauffeur (+{driverRate} par jour)</Trans>
          ) : (
            <Trans>Avec chauffeur</Trans>
          )}
        </label>
        <FieldError id={`${id}-driver-error`} message={errors.driver_option?.message} />
      </fieldset>

      <FilePicker
        id={`${id}-licence`}
        testId="licence-input"
        label={t`Permis de conduire`}
        hint={t`PDF ou photo (JPEG, PNG, WebP, HEIC), 5 Mo au plus : les photos trop lourdes sont réduites sur votre appareil.`}
        value={values.licence ?? null}
        error={errors.licence?.message}
        onPick={(file) => pick('licence', file)}
        onRemove={() => remove('licence')}
      />

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4" {...register('from_abroad')} />
        <Trans>J’arrive de l’étranger (documents de vol demandés)</Trans>
      </label>

      {values.from_abroad && (
        <FilePicker
          id={`${id}-flight`}
          testId="flight-input"
          label={t`Documents de vol`}
          hint={t`Billet ou carte d’embarquement : PDF ou photo, 5 Mo au plus.`}
          value={values.flight_document ?? null}
          error={errors.flight_document?.message}
          onPick={(file) => pick('flight_document', file)}
          onRemove={() => remove('flight_document')}
        />
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
