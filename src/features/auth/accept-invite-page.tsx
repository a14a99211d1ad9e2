import { Trans } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';

import { acceptInvite, updatePassword } from '@/features/auth/auth-api';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { AuthPage } from '@/features/auth/auth-page';
import { forgotPasswordSchema, resetPasswordSchema } from '@/features/auth/auth.schema';
import {
  EmailField,
  FormAlert,
  NewPasswordFields,
  ServerErrorAlert,
  useAuthForm,
} from '@/features/auth/form-fields';
import { useSession } from '@/infra/session';
import { initialAuthRedirect } from '@/infra/supabase';
import { Button } from '@/ui/button';
import { EmailText } from '@/ui/email-text';
import { PageSpinner } from '@/ui/spinner';

/** config.toml's `otp_length`: the codes of auth mails. */
const CODE_LENGTH = 8;

/** The invitee types the address and the mailed code (when the link was not opened here). */
function CodeStep() {
  const codeId = useId();
  const [code, setCode] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(forgotPasswordSchema, { email: '' });
  const expired = initialAuthRedirect?.errorCode != null;

  const onSubmit = handleSubmit(async ({ email }) => {
    setServerError(null);
    const result = await acceptInvite(email, code);
    if (!result.ok) {
      setCode('');
      setServerError(authErrorMessage('signIn', result.error));
    }
  });

  return (
    <form noValidate onSubmit={(e: FormEvent) => void onSubmit(e)} className="flex flex-col gap-4">
      {expired && (
        <FormAlert kind="error">
          <Trans>Ce lien d’invitation est invalide ou a expiré.</Trans>
        </FormAlert>
      )}
      <ServerErrorAlert messages={serverError} />
      <EmailField error={errors.email?.message} {...register('email')} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={codeId} className="text-sm font-medium">
          <Trans>Code reçu par e-mail</Trans>
        </label>
        <input
          id={codeId}
          data-testid="invite-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          dir="ltr"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
          aria-invalid={serverError ? true : undefined}
          className="h-11 w-full rounded-lg border border-line bg-surface px-3 text-center font-mono text-lg tracking-widest text-fg focus-visible:outline-2 focus-visible:outline-ring"
        />
      </div>
      <Button
        type="submit"
        loading={isSubmitting}
        disabled={code.length !== CODE_LENGTH}
        className="w-full"
      >
        <Trans>Valider l’invitation</Trans>
      </Button>
    </form>
  );
}

/** Signed in by the invitation: the invitee chooses a password, then enrols the second factor. */
function PasswordStep() {
  const navigate = useNavigate();
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
    // The staff area asks for the second factor (enrolment) before anything else.
    if (result.ok) navigate('/staff', { replace: true });
    else setServerError(authErrorMessage('updatePassword', result.error));
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <ServerErrorAlert messages={serverError} />
      <NewPasswordFields
        label={<Trans>Mot de passe</Trans>}
        password={{ ...register('password'), error: errors.password?.message }}
        confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
      />
      <Button type="submit" loading={isSubmitting} className="w-full">
        <Trans>Enregistrer et continuer</Trans>
      </Button>
    </form>
  );
}

/**
 * /accept-invite: a staff invitation (docs/auth.md, "Staff invitations"). The mail's link lands
 * here signed in (`#access_token…&type=invite`); otherwise the invitee types the code. Then a
 * password, then the staff area, which asks to enrol the second factor (TOTP).
 */
export default function AcceptInvitePage() {
  const session = useSession();
  if (session.status === 'loading') return <PageSpinner />;
  const signedIn = session.status === 'signedIn';
  const account = session.user?.email ?? '';
  return (
    <AuthPage
      title={<Trans>Rejoindre l’équipe Kiraa</Trans>}
      subtitle={
        signedIn ? (
          <Trans>
            Choisissez le mot de passe du compte <EmailText email={account} />.
          </Trans>
        ) : (
          <Trans>Saisissez votre adresse e-mail et le code reçu dans l’invitation.</Trans>
        )
      }
    >
      {signedIn ? <PasswordStep /> : <CodeStep />}
    </AuthPage>
  );
}
