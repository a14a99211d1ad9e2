import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';

import { signUp } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { signUpSchema } from '@/features/auth/auth.schema';
import {
  EmailField,
  FormAlert,
  NewPasswordFields,
  ServerErrorAlert,
  TextField,
  useAuthForm,
} from '@/features/auth/form-fields';
import { redirectTarget, withRedirect } from '@/features/auth/redirect';
import { useSession } from '@/infra/session';
import { showToast } from '@/infra/toast';
import { Button } from '@/ui/button';

export default function SignUpPage() {
  const { t } = useLingui();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(signUpSchema, {
    fullName: '',
    email: '',
    phone: '',
    age: '',
    address: '',
    password: '',
    confirmPassword: '',
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
        <ServerErrorAlert messages={serverError} />
        <TextField
          label={<Trans>Nom complet</Trans>}
          autoComplete="name"
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <EmailField error={errors.email?.message} {...register('email')} />
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
        <NewPasswordFields
          label={<Trans>Mot de passe</Trans>}
          password={{ ...register('password'), error: errors.password?.message }}
          confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
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
