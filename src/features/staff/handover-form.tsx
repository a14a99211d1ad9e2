import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import {
  handoverRequestSchema,
  idDocumentTypes,
  type DamageMark,
  type HandoverAngle,
  type HandoverKind,
  type IdDocumentType,
} from '@/domain/handover';
import { LIMITS } from '@/domain/limits';
import { cleanTypedText } from '@/domain/typed-text';
import { prepareUpload } from '@/infra/image-prepare';
import { Button } from '@/ui/button';
import { documentLabels } from '@/ui/handover-labels';

import { DamageEditor } from '@/features/staff/damage-editor';
import { PhotoInputs } from '@/features/staff/handover-photos';
import {
  queueHandover,
  type HandoverDraft,
  type HandoverPhotoInput,
} from '@/features/staff/handover-api';

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';
/* eslint-enable lingui/no-unlocalized-strings */

/** The field a server code is about (the form shows it there). */
const fieldOfIssue: Record<string, string> = {
  odometer_km: 'odometer_invalid',
  fuel_eighths: 'fuel_invalid',
  id_document_number: 'id_document_required',
  id_document_type: 'id_document_required',
  licence_seen: 'licence_not_seen',
  deposit_dzd: 'deposit_invalid',
  deposit_kept_dzd: 'deposit_invalid',
  deposit_reason: 'deposit_reason_required',
  notes: 'notes_too_long',
  damage: 'damage_invalid',
};

const whole = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN);

/**
 * A pickup or return record (docs/handovers.md). Saving queues it with its photos in this phone's
 * outbox — it works offline — and the outbox sends it when the network is back.
 */
export function HandoverForm({
  kind,
  bookingId,
  staffId,
  defaultDeposit,
  pickupOdometer,
  onQueued,
  onCancel,
}: {
  kind: HandoverKind;
  bookingId: string;
  staffId: string;
  defaultDeposit: number;
  /** The pickup's odometer, when known: a return cannot be below it. */
  pickupOdometer: number | null;
  onQueued: () => void;
  onCancel: () => void;
}) {
  const { i18n } = useLingui();
  const id = useId();
  const [odometer, setOdometer] = useState('');
  const [fuel, setFuel] = useState('8');
  const [docType, setDocType] = useState<IdDocumentType>('national_id');
  const [docNumber, setDocNumber] = useState('');
  const [licenceSeen, setLicenceSeen] = useState(false);
  const [deposit, setDeposit] = useState(String(defaultDeposit));
  const [kept, setKept] = useState(false);
  const [keptAmount, setKeptAmount] = useState('');
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  const [damage, setDamage] = useState<DamageMark[]>([]);
  const [photos, setPhotos] = useState<Partial<Record<HandoverAngle, HandoverPhotoInput>>>({});
  const [photoErrors, setPhotoErrors] = useState<Partial<Record<HandoverAngle, string>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const pickPhoto = async (angle: HandoverAngle, file: File | undefined) => {
    if (!file) {
      setPhotos(({ [angle]: _, ...rest }) => rest);
      return;
    }
    const prepared = await prepareUpload(file, file.name);
    const type = prepared.ok ? prepared.file.type : null;
    if (!prepared.ok || type === 'application/pdf' || !type) {
      setPhotoErrors((e) => ({
        ...e,
        [angle]: prepared.ok ? 'unsupported_file_type' : prepared.error,
      }));
      return;
    }
    setPhotoErrors(({ [angle]: _, ...rest }) => rest);
    setPhotos((p) => ({ ...p, [angle]: { angle, blob: prepared.file.blob, type } }));
  };

  const submit = async () => {
    const common = {
      id: crypto.randomUUID(),
      booking_id: bookingId,
      odometer_km: whole(odometer),
      fuel_eighths: Number(fuel),
      damage: damage.map((d) => ({ ...d, note: cleanTypedText(d.note) })),
      notes: cleanTypedText(notes) || null,
      recorded_at: new Date().toISOString(),
    };
    const draft: HandoverDraft =
      kind === 'pickup'
        ? {
            ...common,
            kind,
            id_document_type: docType,
            id_document_number: docNumber.trim().toUpperCase(),
            licence_seen: licenceSeen as true,
            deposit_dzd: whole(deposit),
          }
        : {
            ...common,
            kind,
            deposit_status: kept ? 'kept' : 'returned',
            deposit_kept_dzd: kept ? whole(keptAmount) : null,
            deposit_reason: kept ? cleanTypedText(reason) || null : null,
          };
    const parsed = handoverRequestSchema.safeParse({ ...draft, photos: [] });
    const found: Record<string, string> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      found[field] ??= fieldOfIssue[field] ?? 'invalid_payload';
      if (issue.message === 'deposit_invalid' || issue.message === 'deposit_reason_required') {
        found[field] = issue.message;
      }
    }
    if (kind === 'return' && pickupOdometer !== null && common.odometer_km < pickupOdometer) {
      found.odometer_km = 'odometer_below_pickup';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await queueHandover(draft, Object.values(photos), staffId);
      onQueued();
    } catch (error) {
      const code =
        error instanceof Error && error.message === 'handover_queued'
          ? 'handover_exists'
          : 'invalid_payload';
      setErrors({ form: code });
    } finally {
      setBusy(false);
    }
  };

  const error = (field: string) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} role="alert" className="text-sm text-danger">
        {i18n._(bookingErrorMessage(errors[field]))}
      </p>
    ) : null;
  const described = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined);

  return (
    <form
      className="flex flex-col gap-4"
      data-testid={`handover-form-${kind}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {kind === 'pickup' && (
        <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Client</Trans>
          </legend>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-doc-type`} className="text-sm">
              <Trans>Pièce d’identité vérifiée</Trans>
            </label>
            <select
              id={`${id}-doc-type`}
              className={inputClass}
              value={docType}
              onChange={(e) => setDocType(e.target.value as IdDocumentType)}
            >
              {idDocumentTypes.map((d) => (
                <option key={d} value={d}>
                  {i18n._(documentLabels[d])}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-doc-number`} className="text-sm">
              <Trans>Numéro de la pièce</Trans>
            </label>
            <input
              id={`${id}-doc-number`}
              className={inputClass}
              dir="ltr"
              autoComplete="off"
              value={docNumber}
              aria-invalid={!!errors.id_document_number}
              aria-describedby={described('id_document_number')}
              onChange={(e) => setDocNumber(e.target.value)}
            />
            {error('id_document_number')}
          </div>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input
              type="checkbox"
              checked={licenceSeen}
              aria-describedby={described('licence_seen')}
              onChange={(e) => setLicenceSeen(e.target.checked)}
            />
            <Trans>Permis de conduire vu</Trans>
          </label>
          {error('licence_seen')}
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-deposit`} className="text-sm">
              <Trans>Caution reçue en espèces (DZD)</Trans>
            </label>
            <input
              id={`${id}-deposit`}
              className={inputClass}
              inputMode="numeric"
              dir="ltr"
              value={deposit}
              aria-invalid={!!errors.deposit_dzd}
              aria-describedby={described('deposit_dzd')}
              onChange={(e) => setDeposit(e.target.value)}
            />
            {error('deposit_dzd')}
          </div>
        </fieldset>
      )}

      <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Voiture</Trans>
        </legend>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-odometer`} className="text-sm">
            <Trans>Compteur (km)</Trans>
          </label>
          <input
            id={`${id}-odometer`}
            className={inputClass}
            inputMode="numeric"
            dir="ltr"
            value={odometer}
            aria-invalid={!!errors.odometer_km}
            aria-describedby={described('odometer_km')}
            onChange={(e) => setOdometer(e.target.value)}
          />
          {error('odometer_km')}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-fuel`} className="text-sm">
            <Trans>Carburant (huitièmes du réservoir)</Trans>
          </label>
          <select
            id={`${id}-fuel`}
            className={inputClass}
            value={fuel}
            onChange={(e) => setFuel(e.target.value)}
          >
            {[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => (
              <option key={n} value={n}>
                {n}/8
              </option>
            ))}
          </select>
        </div>
      </fieldset>

      <PhotoInputs
        photos={photos}
        errors={photoErrors}
        onPick={(angle, file) => void pickPhoto(angle, file)}
      />

      <DamageEditor marks={damage} onChange={setDamage} />
      {error('damage')}

      {kind === 'return' && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Caution</Trans>
          </legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-deposit`}
              checked={!kept}
              onChange={() => setKept(false)}
            />
            <Trans>Rendue en entier</Trans>
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-deposit`}
              checked={kept}
              onChange={() => setKept(true)}
            />
            <Trans>Retenue (en tout ou partie)</Trans>
          </label>
          {kept && (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-kept`} className="text-sm">
                  <Trans>Montant retenu (DZD)</Trans>
                </label>
                <input
                  id={`${id}-kept`}
                  className={inputClass}
                  inputMode="numeric"
                  dir="ltr"
                  value={keptAmount}
                  aria-invalid={!!errors.deposit_kept_dzd}
                  aria-describedby={described('deposit_kept_dzd')}
                  onChange={(e) => setKeptAmount(e.target.value)}
                />
                {error('deposit_kept_dzd')}
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-reason`} className="text-sm">
                  <Trans>Motif de la retenue</Trans>
                </label>
                <textarea
                  id={`${id}-reason`}
                  className={inputClass}
                  maxLength={LIMITS.text}
                  dir="auto"
                  value={reason}
                  aria-invalid={!!errors.deposit_reason}
                  aria-describedby={described('deposit_reason')}
                  onChange={(e) => setReason(e.target.value)}
                />
                {error('deposit_reason')}
              </div>
            </div>
          )}
        </fieldset>
      )}

      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-notes`} className="text-sm">
          <Trans>Notes (facultatif)</Trans>
        </label>
        <textarea
          id={`${id}-notes`}
          className={inputClass}
          maxLength={LIMITS.text}
          dir="auto"
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
        {error('notes')}
      </div>
      {error('form')}
      <p className="text-xs text-fg-muted">
        <Trans>Le relevé est gardé sur ce téléphone et envoyé dès que le réseau le permet.</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} data-testid="handover-save">
          {kind === 'pickup' ? (
            <Trans>Enregistrer la prise en charge</Trans>
          ) : (
            <Trans>Enregistrer le retour</Trans>
          )}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          <Trans>Annuler</Trans>
        </Button>
      </div>
    </form>
  );
}
