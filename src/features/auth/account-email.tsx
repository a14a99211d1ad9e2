import { Trans } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';

import { confirmEmailChange, requestEmailChange } from '@/features/auth/auth-api';
import { AccountSection, MAIL_CODE_LENGTH, MailCodeField } from '@/features/auth/account-parts';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { forgotPasswordSchema } from '@/features/auth/auth.schema';
import { FormAlert, ServerErrorAlert, TextField, useAuthForm } from '@/features/auth/form-fields';
import { Button } from '@/ui/button';
import { EmailText } from '@/ui/email-text';

type Step =
  | { kind: 'form' }
  /** Codes were mailed; `confirmed` lists the addresses whose code was accepted. */
  | { kind: 'codes'; next: string; confirmed: string[] }
  | { kind: 'done'; email: string };

/**
 * A new address (docs/auth.md, `PUT /user`): a code goes to it and, with `double_confirm_changes`,
 * one to the current address too; the change applies once every mailed code is typed.
 */
export function EmailSection({ currentEmail }: { currentEmail: string }) {
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [codes, setCodes] = useState({ next: '', current: '' });
  const [busy, setBusy] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(forgotPasswordSchema, { email: '' });

  const onRequest = handleSubmit(async ({ email }) => {
    setServerError(null);
    const result = await requestEmailChange(email);
    if (result.ok) {
      setCodes({ next: '', current: '' });
      setStep({ kind: 'codes', next: email, confirmed: [] });
    } else setServerError(authErrorMessage('changeEmail', result.error));
  });

  async function onConfirm(event: FormEvent) {
    event.preventDefault();
    if (step.kind !== 'codes') return;
    setServerError(null);
    setBusy(true);
    const pairs: [string, string][] = [
      [step.next, codes.next],
      [currentEmail, codes.current],
    ];
    let confirmed = step.confirmed;
    for (const [address, code] of pairs) {
      if (code.length !== MAIL_CODE_LENGTH || confirmed.includes(address)) continue;
      const result = await confirmEmailChange(address, code);
      if (result.status === 'failed') {
        setServerError(authErrorMessage('confirmEmailChange', result.error));
        break;
      }
      if (result.status === 'changed') {
        setBusy(false);
        setStep({ kind: 'done', email: step.next });
        return;
      }
      confirmed = [...confirmed, address];
    }
    setBusy(false);
    setStep({ ...step, confirmed });
  }

  return (
    <AccountSection
      id="email"
      title={<Trans>Adresse e-mail</Trans>}
      description={
        <Trans>
          Adresse actuelle : <EmailText email={currentEmail} />
        </Trans>
      }
    >
      {step.kind === 'done' && (
        <FormAlert kind="success">
          <Trans>
            Votre adresse e-mail est maintenant <EmailText email={step.email} />.
          </Trans>
        </FormAlert>
      )}
      {step.kind !== 'codes' && (
        <form noValidate onSubmit={onRequest} className="flex flex-col gap-4">
          <ServerErrorAlert messages={serverError} />
          <TextField
            label={<Trans>Nouvelle adresse e-mail</Trans>}
            type="email"
            autoComplete="email"
            inputMode="email"
            dir="ltr"
            {...register('email')}
            error={errors.email?.message}
          />
          <Button type="submit" loading={isSubmitting} className="self-start">
            <Trans>Changer d&apos;adresse</Trans>
          </Button>
        </form>
      )}
      {step.kind === 'codes' && (
        <form noValidate onSubmit={(e) => void onConfirm(e)} className="flex flex-col gap-4">
          <FormAlert kind="info">
            <Trans>
              Un code à {MAIL_CODE_LENGTH} chiffres a été envoyé à <EmailText email={step.next} />,
              et un autre à votre adresse actuelle si la confirmation des deux adresses est
              demandée. L&apos;adresse change une fois les codes saisis.
            </Trans>
          </FormAlert>
          <ServerErrorAlert messages={serverError} />
          {!step.confirmed.includes(step.next) && (
            <MailCodeField
              label={<Trans>Code reçu à la nouvelle adresse</Trans>}
              value={codes.next}
              onChange={(next) => setCodes((c) => ({ ...c, next }))}
              testId="email-code-new"
            />
          )}
          {!step.confirmed.includes(currentEmail) && (
            <MailCodeField
              label={<Trans>Code reçu à l&apos;adresse actuelle</Trans>}
              value={codes.current}
              onChange={(current) => setCodes((c) => ({ ...c, current }))}
              testId="email-code-current"
            />
          )}
          {step.confirmed.length > 0 && (
            <FormAlert kind="info">
              <Trans>Code accepté. Saisissez maintenant le code reçu à l&apos;autre adresse.</Trans>
            </FormAlert>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={busy}>
              <Trans>Confirmer</Trans>
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'form' })}>
              <Trans>Annuler</Trans>
            </Button>
          </div>
        </form>
      )}
    </AccountSection>
  );
}
