import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { requestPasswordReset } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { forgotPasswordSchema } from '@/features/auth/auth.schema';
import { EmailField, FormAlert, ServerErrorAlert, useAuthForm } from '@/features/auth/form-fields';
import { Button } from '@/ui/button';

export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(forgotPasswordSchema, { email: '' });

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
          <ServerErrorAlert messages={serverError} />
          <EmailField error={errors.email?.message} {...register('email')} />
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
