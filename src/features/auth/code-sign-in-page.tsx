import { Trans } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';

import { requestSignInCode, signInWithCode } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { forgotPasswordSchema } from '@/features/auth/auth.schema';
import { EmailField, FormAlert, ServerErrorAlert, useAuthForm } from '@/features/auth/form-fields';
import { redirectTarget, withRedirect } from '@/features/auth/redirect';
import { useSession } from '@/infra/session';
import { Button } from '@/ui/button';

/** config.toml's `otp_length`: the codes of auth mails. */
const CODE_LENGTH = 8;

/**
 * /sign-in/code: sign in with a code sent by mail, beside the password (docs/auth.md "Sign in
 * with a code"). The code is typed, not a link: an app installed on iOS keeps its storage apart
 * from Safari, where mail links open, so a link would sign Safari in, not the app.
 */
export default function CodeSignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const codeId = useId();
  const target = redirectTarget(location.search);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [verifying, setVerifying] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(forgotPasswordSchema, { email: '' });

  const onAsk = handleSubmit(async ({ email }) => {
    setServerError(null);
    const result = await requestSignInCode(email);
    if (result.ok) setSentTo(email);
    else setServerError(authErrorMessage('signIn', result.error));
  });

  async function onCode(event: FormEvent) {
    event.preventDefault();
    if (!sentTo) return;
    setServerError(null);
    setVerifying(true);
    const result = await signInWithCode(sentTo, code);
    setVerifying(false);
    if (result.ok) {
      navigate(target, { replace: true });
      return;
    }
    setCode('');
    setServerError(authErrorMessage('signIn', result.error));
  }

  if (session.status === 'signedIn' && !verifying) return <Navigate to={target} replace />;

  return (
    <AuthPage
      title={<Trans>Connexion avec un code</Trans>}
      subtitle={
        sentTo ? undefined : (
          <Trans>Saisissez votre adresse e-mail : nous vous enverrons un code de connexion.</Trans>
        )
      }
    >
      {sentTo ? (
        <form noValidate onSubmit={(event) => void onCode(event)} className="flex flex-col gap-4">
          {/* The same answer whether or not an account exists: the page reveals no accounts. */}
          <FormAlert kind="success">
            <Trans>
              Si un compte existe pour {sentTo}, un e-mail avec un code à {CODE_LENGTH} chiffres
              vient d’être envoyé. Pensez à vérifier les courriers indésirables.
            </Trans>
          </FormAlert>
          <ServerErrorAlert messages={serverError} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={codeId} className="text-sm font-medium">
              <Trans>Code reçu par e-mail</Trans>
            </label>
            <input
              id={codeId}
              data-testid="sign-in-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={CODE_LENGTH}
              dir="ltr"
              value={code}
              onChange={(event) =>
                setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))
              }
              aria-invalid={serverError ? true : undefined}
              className="h-11 w-full rounded-lg border border-line bg-surface px-3 text-center font-mono text-lg tracking-widest text-fg focus-visible:outline-2 focus-visible:outline-ring"
            />
          </div>
          <Button
            type="submit"
            loading={verifying}
            disabled={code.length !== CODE_LENGTH}
            className="w-full"
          >
            <Trans>Se connecter</Trans>
          </Button>
          <Button
            variant="secondary"
            className="w-full"
            onClick={() => {
              setSentTo(null);
              setCode('');
              setServerError(null);
            }}
          >
            <Trans>Recevoir un nouveau code</Trans>
          </Button>
        </form>
      ) : (
        <form noValidate onSubmit={onAsk} className="flex flex-col gap-4">
          <ServerErrorAlert messages={serverError} />
          <EmailField error={errors.email?.message} {...register('email')} />
          <Button type="submit" loading={isSubmitting} className="w-full">
            <Trans>Recevoir un code</Trans>
          </Button>
        </form>
      )}
      <p className="text-center text-sm">
        <Link
          to={withRedirect('/sign-in', location.search)}
          className="font-medium text-primary-text hover:underline"
        >
          <Trans>Se connecter avec le mot de passe</Trans>
        </Link>
      </p>
    </AuthPage>
  );
}
