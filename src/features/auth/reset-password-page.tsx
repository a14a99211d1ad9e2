import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';

import { updatePassword } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import {
  type ResetPasswordInput,
  type ResetPasswordValues,
  resetPasswordSchema,
} from '@/features/auth/auth.schema';
import { FormAlert, PasswordField } from '@/features/auth/form-fields';
import { AUTHENTICATED_ENTRY } from '@/features/auth/redirect';
import { useSession } from '@/lib/session';
import { initialAuthRedirect } from '@/lib/supabase';
import { Button, buttonClass } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

/**
 * Reached from the recovery mail: supabase-js reads `#access_token…&type=recovery`, which signs the
 * user in for this change. A signed-in user may also change their password here.
 */
export default function ResetPasswordPage() {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const session = useSession();
  const [serverError, setServerError] = useState<MessageDescriptor[] | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordInput, unknown, ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });

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
        {serverError && (
          <FormAlert kind="error">{serverError.map((m) => i18n._(m)).join(' ')}</FormAlert>
        )}
        <PasswordField
          label={<Trans>Nouveau mot de passe</Trans>}
          autoComplete="new-password"
          hint={
            <Trans>
              Au moins 8 caractères, avec une majuscule, une minuscule, un chiffre et un caractère
              spécial.
            </Trans>
          }
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label={<Trans>Confirmer le mot de passe</Trans>}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" loading={isSubmitting} className="w-full">
          <Trans>Enregistrer le mot de passe</Trans>
        </Button>
      </form>
    </AuthPage>
  );
}
