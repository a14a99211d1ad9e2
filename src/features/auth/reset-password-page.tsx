import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { updatePassword } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { resetPasswordSchema } from '@/features/auth/auth.schema';
import {
  FormAlert,
  NewPasswordFields,
  ServerErrorAlert,
  useAuthForm,
} from '@/features/auth/form-fields';
import { AUTHENTICATED_ENTRY } from '@/features/auth/redirect';
import { useSession } from '@/infra/session';
import { initialAuthRedirect } from '@/infra/supabase';
import { Button, buttonClass } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

/**
 * Reached from the recovery mail: supabase-js reads `#access_token…&type=recovery`, which signs the
 * user in for this change. A signed-in user may also change their password here.
 */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const session = useSession();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(resetPasswordSchema, { password: '', confirmPassword: '' });

  const onSubmit = handleSubmit(async ({ password }) => {
    setServerError(null);
    const result = await updatePassword(password);
    if (result.ok) setDone(true);
    else setServerError(authErrorMessage('updatePassword', result.error));
  });

  if (done) {
    return (
      <AuthPage title={<Trans>Mot de passe modifié</Trans>}>
        <FormAlert kind="success">
          <Trans>Votre mot de passe a été réinitialisé. Vous êtes connecté.</Trans>
        </FormAlert>
        <Button className="w-full" onClick={() => navigate(AUTHENTICATED_ENTRY, { replace: true })}>
          <Trans>Continuer</Trans>
        </Button>
      </AuthPage>
    );
  }

  if (session.status === 'loading') return <PageSpinner />;

  if (session.status !== 'signedIn') {
    const expired = initialAuthRedirect?.errorCode != null;
    return (
      <AuthPage title={<Trans>Réinitialiser le mot de passe</Trans>}>
        <FormAlert kind="error">
          {expired ? (
            <Trans>Ce lien de réinitialisation est invalide ou a expiré.</Trans>
          ) : (
            <Trans>Ouvrez le lien reçu par e-mail pour choisir un nouveau mot de passe.</Trans>
          )}
        </FormAlert>
        <Link to="/forgot-password" className={buttonClass({ className: 'w-full' })}>
          <Trans>Demander un nouveau lien</Trans>
        </Link>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title={<Trans>Nouveau mot de passe</Trans>}
      subtitle={<Trans>Choisissez un nouveau mot de passe pour votre compte.</Trans>}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <ServerErrorAlert messages={serverError} />
        <NewPasswordFields
          label={<Trans>Nouveau mot de passe</Trans>}
          password={{ ...register('password'), error: errors.password?.message }}
          confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        />
        <Button type="submit" loading={isSubmitting} className="w-full">
          <Trans>Enregistrer le mot de passe</Trans>
        </Button>
      </form>
    </AuthPage>
  );
}
