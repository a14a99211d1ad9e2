import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';

import { signUp } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { type SignUpInput, type SignUpValues, signUpSchema } from '@/features/auth/auth.schema';
import { FormAlert, PasswordField, TextField } from '@/features/auth/form-fields';
import { redirectTarget, withRedirect } from '@/features/auth/redirect';
import { useSession } from '@/lib/session';
import { showToast } from '@/lib/toast';
import { Button } from '@/ui/button';

export default function SignUpPage() {
  const { t, i18n } = useLingui();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const [serverError, setServerError] = useState<MessageDescriptor[] | null>(null);
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput, unknown, SignUpValues>({
    resolver: zodResolver(signUpSchema),
    mode: 'onTouched',
    defaultValues: {
      fullName: '',
      email: '',
      phone: '',
      age: '',
      address: '',
      password: '',
      confirmPassword: '',
    },
  });

  const target = redirectTarget(location.search);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    const result = await signUp(values);
    if (result.status === 'signedIn') {
      showToast(t`Compte créé. Bienvenue sur Kiraa !`, { kind: 'success' });
      navigate(target, { replace: true });
    } else if (result.status === 'confirmEmail') {
      setAwaitingConfirmation(values.email);
    } else {
      setServerError(authErrorMessage('signUp', result.error));
    }
  });

  if (session.status === 'signedIn' && !isSubmitting) return <Navigate to={target} replace />;

  if (awaitingConfirmation) {
    return (
      <AuthPage title={<Trans>Compte créé</Trans>}>
        <FormAlert kind="success">
          <Trans>
            Votre compte a été créé. Confirmez votre adresse avec le lien envoyé à{' '}
            {awaitingConfirmation}, puis connectez-vous.
          </Trans>
        </FormAlert>
        <Link
          to={withRedirect('/sign-in', location.search)}
          className="text-center text-sm font-medium text-primary-text hover:underline"
        >
          <Trans>Aller à la connexion</Trans>
        </Link>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title={<Trans>Créer un compte</Trans>}
      subtitle={<Trans>Suivez vos réservations et recevez leurs nouvelles.</Trans>}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {serverError && (
          <FormAlert kind="error">{serverError.map((m) => i18n._(m)).join(' ')}</FormAlert>
        )}
        <TextField
          label={<Trans>Nom complet</Trans>}
          autoComplete="name"
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <TextField
          label={<Trans>Adresse e-mail</Trans>}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder={t`vous@exemple.dz`}
          error={errors.email?.message}
          {...register('email')}
        />
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <TextField
            label={<Trans>Téléphone</Trans>}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            dir="ltr"
            placeholder="+213555123456"
            error={errors.phone?.message}
            {...register('phone')}
          />
          <TextField
            label={<Trans>Âge</Trans>}
            inputMode="numeric"
            autoComplete="off"
            error={errors.age?.message}
            {...register('age')}
          />
        </div>
        <TextField
          label={<Trans>Adresse complète</Trans>}
          autoComplete="street-address"
          error={errors.address?.message}
          {...register('address')}
        />
        <PasswordField
          label={<Trans>Mot de passe</Trans>}
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
          <Trans>Créer mon compte</Trans>
        </Button>
      </form>
      <p className="text-center text-sm text-fg-muted">
        <Trans>Déjà un compte ?</Trans>{' '}
        <Link
          to={withRedirect('/sign-in', location.search)}
          className="font-medium text-primary-text hover:underline"
        >
          <Trans>Se connecter</Trans>
        </Link>
      </p>
    </AuthPage>
  );
}
