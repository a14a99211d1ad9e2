import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';

import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';
import { ErrorIcon } from '@/ui/icons';
import { PageSpinner } from '@/ui/spinner';

import {
  assurance,
  enrolTotp,
  verifyTotp,
  type FactorFailure,
} from '@/features/staff/second-factor-api';

/**
 * Staff screens open only at aal2 (docs/auth.md, "MFA (TOTP) and staff"; the database refuses staff data
 * to any other token): a staff member with a verified factor types its code, one without a
 * factor enrols one first (the server's QR code and the secret as text).
 */
type Step =
  | { kind: 'checking' }
  | { kind: 'ready' }
  | { kind: 'challenge'; factorId: string }
  | { kind: 'enrol' }
  | { kind: 'scan'; factorId: string; qrCode: string; secret: string };

type Failure = FactorFailure;

function FailureText({ failure }: { failure: Failure }) {
  return (
    <p role="alert" className="flex items-center gap-1 text-sm text-danger">
      <ErrorIcon size={16} />
      {failure === 'wrong' ? (
        <Trans>Code incorrect ou expiré. Saisissez le code affiché maintenant.</Trans>
      ) : failure === 'limit' ? (
        <Trans>Trop de codes incorrects. Réessayez dans une heure.</Trans>
      ) : (
        <Trans>Le serveur ne répond pas. Vérifiez votre connexion et réessayez.</Trans>
      )}
    </p>
  );
}

/** The 6-digit code field and its submit button. */
function CodeForm({
  submitLabel,
  onCode,
}: {
  submitLabel: ReactNode;
  onCode: (code: string) => Promise<Failure | null>;
}) {
  const { t } = useLingui();
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setFailure('wrong');
      return;
    }
    setBusy(true);
    setFailure(null);
    const outcome = await onCode(code);
    setBusy(false);
    setFailure(outcome);
    if (outcome) setCode('');
  }

  return (
    <form className="flex flex-col gap-3" onSubmit={(event) => void submit(event)} noValidate>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          <Trans>Code à 6 chiffres</Trans>
        </label>
        <input
          id={id}
          data-testid="second-factor-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          dir="ltr"
          value={code}
          placeholder={t`123456`}
          aria-invalid={failure ? true : undefined}
          onChange={(event) => {
            setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
            setFailure(null);
          }}
          className="h-11 w-full max-w-48 rounded-lg border border-line bg-surface px-3 text-center font-mono text-lg tracking-widest text-fg focus-visible:outline-2 focus-visible:outline-ring"
        />
      </div>
      {failure && <FailureText failure={failure} />}
      <Button
        type="submit"
        loading={busy}
        className="self-start"
        data-testid="second-factor-submit"
      >
        {submitLabel}
      </Button>
    </form>
  );
}

/** Renders `children` once the session is aal2; until then the second-factor step. */
export function SecondFactorGate({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const online = useOnline();
  const [step, setStep] = useState<Step>({ kind: 'checking' });
  const [enrolFailure, setEnrolFailure] = useState<Failure | null>(null);
  const [enrolling, setEnrolling] = useState(false);

  useEffect(() => {
    let live = true;
    void assurance().then(({ aal2, factorId }) => {
      if (!live) return;
      if (aal2) setStep({ kind: 'ready' });
      else setStep(factorId ? { kind: 'challenge', factorId } : { kind: 'enrol' });
    });
    return () => {
      live = false;
    };
  }, []);

  async function enrol() {
    setEnrolling(true);
    const enrolled = await enrolTotp();
    setEnrolling(false);
    if (!enrolled.ok) {
      setEnrolFailure(enrolled.failure);
      return;
    }
    setEnrolFailure(null);
    setStep({
      kind: 'scan',
      factorId: enrolled.factorId,
      qrCode: enrolled.qrCode,
      secret: enrolled.secret,
    });
  }

  async function passed(factorId: string, code: string): Promise<Failure | null> {
    const failure = await verifyTotp(factorId, code);
    if (!failure) setStep({ kind: 'ready' });
    return failure;
  }

  if (step.kind === 'checking') return <PageSpinner />;
  if (step.kind === 'ready') return children;

  return (
    <section
      className="mx-auto flex w-full max-w-lg flex-col gap-4 rounded-2xl border border-line bg-surface p-5"
      data-testid="second-factor"
      data-step={step.kind}
    >
      <title>{t`Deuxième étape · Personnel · Kiraa`}</title>
      {step.kind === 'challenge' ? (
        <>
          <h1 className="text-2xl font-bold">
            <Trans>Deuxième étape de connexion</Trans>
          </h1>
          <p className="text-fg-muted">
            <Trans>
              L’espace agence demande le code à 6 chiffres de votre application d’authentification.
            </Trans>
          </p>
          <CodeForm
            submitLabel={<Trans>Vérifier</Trans>}
            onCode={(code) => passed(step.factorId, code)}
          />
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold">
            <Trans>Protégez l’espace agence</Trans>
          </h1>
          <p className="text-fg-muted">
            <Trans>
              Le personnel se connecte en deux étapes : le mot de passe, puis un code à 6 chiffres
              d’une application d’authentification (Google Authenticator, Aegis, 1Password…).
            </Trans>
          </p>
          {step.kind === 'enrol' ? (
            <>
              {enrolFailure && <FailureText failure={enrolFailure} />}
              <Button
                className="self-start"
                loading={enrolling}
                disabled={!online}
                onClick={() => void enrol()}
                data-testid="second-factor-enrol"
              >
                <Trans>Configurer l’application</Trans>
              </Button>
            </>
          ) : (
            <>
              <ol className="flex list-decimal flex-col gap-3 ps-5">
                <li>
                  <Trans>Scannez ce QR code avec l’application.</Trans>
                  <img
                    src={step.qrCode}
                    alt={t`QR code à scanner avec l’application d’authentification`}
                    className="mt-2 size-48 rounded-lg bg-white p-1"
                    width={192}
                    height={192}
                  />
                </li>
                <li>
                  <Trans>Ou saisissez cette clé dans l’application :</Trans>
                  <code
                    className="mt-1 block break-all rounded-lg bg-muted px-2 py-1 font-mono text-sm"
                    dir="ltr"
                    data-testid="second-factor-secret"
                  >
                    {step.secret}
                  </code>
                </li>
                <li>
                  <Trans>Saisissez le code qu’elle affiche.</Trans>
                </li>
              </ol>
              <CodeForm
                submitLabel={<Trans>Activer</Trans>}
                onCode={(code) => passed(step.factorId, code)}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}
