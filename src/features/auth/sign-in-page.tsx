import { Trans } from '@lingui/react/macro';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';

import { signIn } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { signInSchema } from '@/features/auth/auth.schema';
import {
  EmailField,
  PasswordField,
  ServerErrorAlert,
  useAuthForm,
} from '@/features/auth/form-fields';
import { redirectTarget, withRedirect } from '@/features/auth/redirect';
import { useSession } from '@/infra/session';
import { Button, buttonClass } from '@/ui/button';

export default function SignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(signInSchema, { email: '', password: '' });

  const target = redirectTarget(location.search);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    const result = await signIn(values);
    if (result.ok) {
      navigate(target, { replace: true });
      return;
    }
    setServerError(authErrorMessage('signIn', result.error));
  });

  // Already signed in (another tab, the back button): nothing to do here.
  if (session.status === 'signedIn' && !isSubmitting) return <Navigate to={target} replace />;

  return (
    <AuthPage
      title={<Trans>Bon retour !</Trans>}
      subtitle={<Trans>Connectez-vous pour retrouver vos réservations.</Trans>}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <ServerErrorAlert messages={serverError} />
        <EmailField error={errors.email?.message} {...register('email')} />
        <PasswordField
          label={<Trans>Mot de passe</Trans>}
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="flex justify-end">
          <Link
            to="/forgot-password"
            className="text-sm font-medium text-primary-text hover:underline"
          >
            <Trans>Mot de passe oublié ?</Trans>
          </Link>
        </div>
        <Button type="submit" loading={isSubmitting} className="w-full">
          <Trans>Se connecter</Trans>
        </Button>
        <Link
          to={withRedirect('/sign-in/code', location.search)}
          className={buttonClass({ variant: 'secondary', className: 'w-full' })}
        >
          <Trans>Recevoir un code par e-mail</Trans>
        </Link>
      </form>
      <p className="text-center text-sm text-fg-muted">
        <Trans>Pas encore de compte ?</Trans>{' '}
        <Link
          to={withRedirect('/sign-up', location.search)}
          className="font-medium text-primary-text hover:underline"
        >
          <Trans>Créer un compte</Trans>
        </Link>
      </p>
    </AuthPage>
  );
}
