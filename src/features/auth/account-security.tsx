import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import {
  enrolFactor,
  listFactors,
  listIdentities,
  removeFactor,
  signOutEverywhere,
  verifyFactor,
  type FactorRow,
  type IdentityRow,
} from '@/features/auth/auth-api';
import { AccountSection } from '@/features/auth/account-parts';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { ServerErrorAlert } from '@/features/auth/form-fields';
import { UNAUTHENTICATED_ENTRY } from '@/features/auth/redirect';
import { Button } from '@/ui/button';

type Enrolment = { id: string; qrCode: string; secret: string };

/**
 * Authenticator apps (TOTP factors: list, add, remove), the ways to sign in (identities) and
 * "sign out everywhere" (docs/auth.md, "MFA (TOTP) and staff").
 */
export function SecuritySection() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const codeId = useId();
  const [factors, setFactors] = useState<FactorRow[] | null>(null);
  const [identities, setIdentities] = useState<IdentityRow[] | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<MessageDescriptor[] | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(
    () =>
      Promise.all([listFactors(), listIdentities()]).then(([nextFactors, nextIdentities]) => {
        setFactors(nextFactors);
        setIdentities(nextIdentities);
      }),
    [],
  );
  useEffect(() => {
    let live = true;
    void Promise.all([listFactors(), listIdentities()]).then(([nextFactors, nextIdentities]) => {
      if (!live) return;
      setFactors(nextFactors);
      setIdentities(nextIdentities);
    });
    return () => {
      live = false;
    };
  }, []);

  async function run(action: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  const verified = (factors ?? []).filter((f) => f.status === 'verified');
  return (
    <AccountSection id="security" title={<Trans>Sécurité</Trans>}>
      <ServerErrorAlert messages={error} />
      <div className="flex flex-col gap-2">
        <h3 className="font-medium">
          <Trans>Applications d&apos;authentification</Trans>
        </h3>
        {verified.length === 0 ? (
          <p className="text-sm text-fg-muted">
            <Trans>Aucune application d&apos;authentification n&apos;est enregistrée.</Trans>
          </p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="account-factors">
            {verified.map((factor) => (
              <li
                key={factor.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line px-3 py-2"
              >
                <span dir="auto">{factor.name || t`Application d'authentification`}</span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => {
                      const result = await removeFactor(factor.id);
                      if (!result.ok) setError(authErrorMessage('factor', result.error));
                      await refresh();
                    })
                  }
                >
                  <Trans>Retirer</Trans>
                </Button>
              </li>
            ))}
          </ul>
        )}
        {!enrolment && (
          <Button
            variant="secondary"
            className="self-start"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                const result = await enrolFactor();
                if (result.ok) setEnrolment(result);
                else setError(authErrorMessage('factor', result.error));
              })
            }
          >
            <Trans>Ajouter une application d&apos;authentification</Trans>
          </Button>
        )}
        {enrolment && (
          <form
            className="flex flex-col gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              void run(async () => {
                const result = await verifyFactor(enrolment.id, code);
                if (!result.ok) {
                  setError(authErrorMessage('factor', result.error));
                  return;
                }
                setEnrolment(null);
                setCode('');
                await refresh();
              });
            }}
          >
            <p className="text-sm">
              <Trans>
                Scannez ce code avec votre application, ou saisissez la clé, puis le code à 6
                chiffres qu&apos;elle affiche.
              </Trans>
            </p>
            <img src={enrolment.qrCode} alt={t`Code QR de l'application`} className="size-44" />
            <code dir="ltr" className="break-all font-mono text-sm">
              {enrolment.secret}
            </code>
            <label htmlFor={codeId} className="text-sm font-medium">
              <Trans>Code de l&apos;application</Trans>
            </label>
            <input
              id={codeId}
              inputMode="numeric"
              autoComplete="one-time-code"
              dir="ltr"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
              className="h-11 w-full max-w-xs rounded-lg border border-line bg-surface px-3 font-mono text-lg tracking-widest text-fg focus-visible:outline-2 focus-visible:outline-ring"
            />
            <Button type="submit" className="self-start" disabled={busy || code.length !== 6}>
              <Trans>Vérifier</Trans>
            </Button>
          </form>
        )}
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="font-medium">
          <Trans>Moyens de connexion</Trans>
        </h3>
        <ul className="flex flex-col gap-1 text-sm" data-testid="account-identities">
          {(identities ?? []).map((identity) => (
            <li key={identity.id}>
              {identity.provider === 'email' ? (
                <Trans>E-mail et mot de passe</Trans>
              ) : (
                <span dir="ltr">{identity.provider}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="font-medium">
          <Trans>Sessions</Trans>
        </h3>
        <p className="text-sm text-fg-muted">
          <Trans>Déconnecte ce compte de tous les appareils, celui-ci compris.</Trans>
        </p>
        <Button
          variant="danger"
          className="self-start"
          data-testid="sign-out-everywhere"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const result = await signOutEverywhere();
              if (result.ok) navigate(UNAUTHENTICATED_ENTRY, { replace: true });
              else setError(authErrorMessage('factor', result.error));
            })
          }
        >
          <Trans>Se déconnecter partout</Trans>
        </Button>
      </div>
    </AccountSection>
  );
}
