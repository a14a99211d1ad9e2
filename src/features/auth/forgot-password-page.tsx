import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { requestPasswordReset } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import {
  type ForgotPasswordInput,
  type ForgotPasswordValues,
  forgotPasswordSchema,
} from '@/features/auth/auth.schema';
import { FormAlert, TextField } from '@/features/auth/form-fields';
import { Button } from '@/ui/button';

export default function ForgotPasswordPage() {
  const { t, i18n } = useLingui();
  const [serverError, setServerError] = useState<MessageDescriptor[] | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordInput, unknown, ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    setServerError(null);
    const result = await requestPasswordReset(email);
    if (result.ok) setSentTo(email);
    else setServerError(authErrorMessage('recover', result.error));
  });

  return (
    <AuthPage
      title={<Trans>Mot de passe oublié</Trans>}
      subtitle={
        sentTo ? undefined : (
          <Trans>
            Saisissez votre adresse e-mail : nous vous enverrons un lien pour le changer.
          </Trans>
        )
      }
    >
      {sentTo ? (
        // The same answer whether or not an account exists: the page does not reveal accounts.
        <FormAlert kind="success">
          <Trans>
            Si un compte existe pour {sentTo}, un e-mail avec un lien de réinitialisation vient
            d'être envoyé. Pensez à vérifier les courriers indésirables.
          </Trans>
        </FormAlert>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          {serverError && (
            <FormAlert kind="error">{serverError.map((m) => i18n._(m)).join(' ')}</FormAlert>
          )}
          <TextField
            label={<Trans>Adresse e-mail</Trans>}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder={t`vous@exemple.dz`}
            error={errors.email?.message}
            {...register('email')}
          />
          <Button type="submit" loading={isSubmitting} className="w-full">
            <Trans>Envoyer le lien</Trans>
          </Button>
        </form>
      )}
      <p className="text-center text-sm">
        <Link to="/sign-in" className="font-medium text-primary-text hover:underline">
          <Trans>Retour à la connexion</Trans>
        </Link>
      </p>
    </AuthPage>
  );
}
