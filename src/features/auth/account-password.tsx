import { Trans } from '@lingui/react/macro';
import { useState } from 'react';

import { changePassword, sendReauthenticationCode } from '@/features/auth/auth-api';
import { AccountSection, MAIL_CODE_LENGTH, MailCodeField } from '@/features/auth/account-parts';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { resetPasswordSchema } from '@/features/auth/auth.schema';
import {
  FormAlert,
  NewPasswordFields,
  ServerErrorAlert,
  useAuthForm,
} from '@/features/auth/form-fields';
import { Button } from '@/ui/button';

/**
 * A new password. When the server asks for proof first (GoTrue's `reauthentication_needed`,
 * config.toml `secure_password_change`), a code is mailed and the change is sent again with it
 * (docs/auth.md, `GET /reauthenticate`). Either way the other sessions end (GoTrue).
 */
export function PasswordSection() {
  const [step, setStep] = useState<'form' | 'code' | 'done'>('form');
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(resetPasswordSchema, { password: '', confirmPassword: '' });

  const onSubmit = handleSubmit(async ({ password }) => {
    setServerError(null);
    const result = await changePassword(password, step === 'code' ? code : undefined);
    if (result.status === 'changed') {
      setStep('done');
      setCode('');
      reset({ password: '', confirmPassword: '' });
    } else if (result.status === 'needsCode') setStep('code');
    else setServerError(authErrorMessage('changePassword', result.error));
  });

  return (
    <AccountSection id="password" title={<Trans>Mot de passe</Trans>}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <ServerErrorAlert messages={serverError} />
        {step === 'done' && (
          <FormAlert kind="success">
            <Trans>Mot de passe modifié. Vos autres appareils ont été déconnectés.</Trans>
          </FormAlert>
        )}
        <NewPasswordFields
          label={<Trans>Nouveau mot de passe</Trans>}
          password={{ ...register('password'), error: errors.password?.message }}
          confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        {step === 'code' && (
          <>
            <FormAlert kind="info">
              <Trans>
                Pour confirmer, saisissez le code à {MAIL_CODE_LENGTH} chiffres que nous venons
                d&apos;envoyer à votre adresse e-mail.
              </Trans>
            </FormAlert>
            <MailCodeField
              label={<Trans>Code de confirmation</Trans>}
              value={code}
              onChange={setCode}
              testId="password-code"
              invalid={serverError !== null}
            />
            <Button
              type="button"
              variant="ghost"
              className="self-start"
              onClick={() => {
                setResent(false);
                void sendReauthenticationCode().then((r) =>
                  r.ok
                    ? setResent(true)
                    : setServerError(authErrorMessage('changePassword', r.error)),
                );
              }}
            >
              <Trans>Renvoyer le code</Trans>
            </Button>
            {resent && (
              <FormAlert kind="info">
                <Trans>Un nouveau code a été envoyé.</Trans>
              </FormAlert>
            )}
          </>
        )}
        <Button
          type="submit"
          loading={isSubmitting}
          disabled={step === 'code' && code.length !== MAIL_CODE_LENGTH}
          className="self-start"
        >
          <Trans>Changer le mot de passe</Trans>
        </Button>
      </form>
    </AccountSection>
  );
}
