import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import type { LocalBooking } from '@/domain/local-booking';
import { normalizePhone } from '@/domain/phone';
import { cleanTypedParagraphs, cleanTypedText } from '@/domain/typed-text';
import { updateQueuedBooking } from '@/sync/outbox/parked';
import { requestFlush } from '@/sync/sync-engine';
import { Button } from '@/ui/button';

import { FieldError, inputClassName } from '@/features/booking/form-parts';
import { servicesSchema } from '@/features/booking/services.schema';
import { validationMessages } from '@/features/booking/validation-messages';

/**
 * The contact and requests of a booking the server refused for what was typed, in the wizard's
 * own fields and rules (services.schema.ts, cleaned as the wizard cleans): everything else —
 * car, dates, places, options, files, reference — is kept, and the booking is queued again.
 */
export function EditDetails({ booking, onDone }: { booking: LocalBooking; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [values, setValues] = useState({
    guest_name: booking.guest_name ?? '',
    guest_phone: booking.guest_phone ?? '',
    guest_email: booking.guest_email ?? '',
    additional_requests: booking.additional_requests ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});

  async function save() {
    const result = servicesSchema(validationMessages(i18n), {
      isGuest: booking.is_guest,
    }).safeParse({ ...values, extras: [], insurance: [] });
    if (!result.success) {
      const next: typeof errors = {};
      for (const issue of result.error.issues) {
        const key = issue.path[0] as keyof typeof values;
        if (key in values && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    const requests = cleanTypedParagraphs(values.additional_requests);
    const phone = cleanTypedText(values.guest_phone);
    await updateQueuedBooking(
      booking.id,
      {
        additional_requests: requests || null,
        ...(booking.is_guest
          ? {
              guest_name: cleanTypedText(values.guest_name),
              guest_phone: normalizePhone(phone) ?? phone,
              guest_email: cleanTypedText(values.guest_email),
            }
          : {}),
      },
      booking.price,
    );
    requestFlush();
    onDone();
  }

  const field = (key: keyof typeof values, label: string, type = 'text') => (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      {key === 'additional_requests' ? (
        <textarea
          id={`${id}-${key}`}
          value={values[key]}
          rows={3}
          className={inputClassName}
          aria-invalid={errors[key] ? true : undefined}
          aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
          onChange={(e) => setValues({ ...values, [key]: e.target.value })}
        />
      ) : (
        <input
          id={`${id}-${key}`}
          type={type}
          dir={key === 'guest_name' ? 'auto' : type === 'text' ? undefined : 'ltr'}
          value={values[key]}
          className={inputClassName}
          aria-invalid={errors[key] ? true : undefined}
          aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
          onChange={(e) => setValues({ ...values, [key]: e.target.value })}
        />
      )}
      <FieldError id={`${id}-${key}-error`} message={errors[key]} />
    </div>
  );

  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      data-testid="edit-details-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="text-sm">
        <Trans>
          Corrigez vos informations : la voiture, les dates, les options et vos documents restent
          les mêmes.
        </Trans>
      </p>
      {booking.is_guest && field('guest_name', t`Nom complet`)}
      {booking.is_guest && field('guest_phone', t`Numéro de téléphone`, 'tel')}
      {booking.is_guest && field('guest_email', t`Adresse e-mail`, 'email')}
      {field('additional_requests', t`Demandes particulières`)}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" type="submit" data-testid="edit-details-save">
          <Trans>Envoyer avec ces informations</Trans>
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          <Trans>Annuler</Trans>
        </Button>
      </div>
    </form>
  );
}
