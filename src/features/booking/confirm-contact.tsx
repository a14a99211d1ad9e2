import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import type { LocalBooking } from '@/domain/local-booking';
import { normalizeReference } from '@/domain/reference';
import { loadFeatureCatalog } from '@/infra/i18n';
import { useOnline } from '@/infra/network';
import { CONTACT_LINES, formatPhone, whatsappUrl } from '@/infra/whatsapp';
import { Button } from '@/ui/button';
import { Spinner } from '@/ui/spinner';

import {
  confirmGuestBooking,
  resendGuestConfirmation,
  type ConfirmResult,
  type ResendResult,
} from '@/features/booking/booking-api';
import { describedBy, Field, inputClassName, Notice } from '@/features/booking/form-parts';

const CODE_RE = /^\d{8}$/;

/** "Also open my account": its code and words load when chosen (lingui.config.ts). */
const JoinAccount = lazy(async () => {
  const [module] = await Promise.all([
    import('@/features/booking/join-account'),
    loadFeatureCatalog('guest-account'),
  ]);
  return { default: module.JoinAccount };
});

/** The code as typed: digits only (a pasted "1234 5678" or "1234-5678" counts). */
export function cleanCode(value: string): string {
  return value.replace(/[\s-]/g, '');
}

function ConfirmAnswer({ result }: { result: ConfirmResult | null }) {
  const { i18n } = useLingui();
  if (!result) return null;
  if (result.kind === 'confirmed') {
    return (
      <Notice tone="success" live>
        <span data-testid="contact-confirmed">
          <Trans>
            Adresse e-mail confirmée. L’agence va maintenant accepter ou refuser votre réservation.
          </Trans>
        </span>
      </Notice>
    );
  }
  const code =
    result.kind === 'refused'
      ? result.reason
      : result.kind === 'rate_limited'
        ? 'rate_limited'
        : '';
  return (
    <Notice
      tone={code === 'booking_expired' || code === 'car_unavailable' ? 'danger' : 'warning'}
      live
    >
      <span data-testid="confirm-refused" data-reason={code || result.kind}>
        {result.kind === 'error' ? (
          <Trans>La confirmation a besoin du réseau. Réessayez une fois connecté.</Trans>
        ) : (
          i18n._(bookingErrorMessage(code))
        )}
      </span>
    </Notice>
  );
}

function ResendAnswer({ result }: { result: ResendResult | null }) {
  const { i18n } = useLingui();
  if (!result) return null;
  if (result.kind === 'sent') {
    return (
      <Notice tone="success" live>
        <span data-testid="code-resent">
          <Trans>
            Un nouveau code a été envoyé. Le code précédent reste valable jusqu’à ce que l’un des
            deux soit utilisé.
          </Trans>
        </span>
      </Notice>
    );
  }
  const noneLeft =
    result.kind === 'refused' && result.reason === 'resend_limited' && !result.retryAt;
  return (
    <Notice tone="warning" live>
      <span
        data-testid="resend-refused"
        data-reason={result.kind === 'refused' ? result.reason : ''}
      >
        {result.kind === 'error' ? (
          <Trans>L’envoi d’un nouveau code a besoin du réseau.</Trans>
        ) : noneLeft ? (
          <Trans>Plus aucun nouveau code ne peut être envoyé : utilisez le dernier reçu.</Trans>
        ) : (
          i18n._(bookingErrorMessage(result.reason))
        )}
      </span>
    </Notice>
  );
}

/**
 * When no code can reach the guest (its mail was not sent, no resend left, too many wrong codes):
 * the agency can confirm the booking by phone — a call, or WhatsApp with the reference written.
 */
export function AgencyHelp({
  reference,
  reason,
}: {
  reference: string;
  reason: 'not_sent' | 'stuck';
}) {
  const { t } = useLingui();
  const line = CONTACT_LINES.find((l) => l.key === 'reservation') ?? CONTACT_LINES[0]!;
  const message = t`Bonjour Kiraa, je n’ai pas pu confirmer ma réservation ${reference} : le code de confirmation ne m’est pas parvenu.`;
  return (
    <Notice tone="danger" live>
      <div className="flex flex-col gap-2" data-testid="agency-help" data-reason={reason}>
        <p>
          {reason === 'not_sent' ? (
            <Trans>
              Le code de confirmation n’a pas pu être envoyé à votre adresse e-mail (trop d’e-mails
              envoyés à cette adresse). Appelez l’agence ou écrivez-lui sur WhatsApp avec votre
              référence : elle peut confirmer votre réservation ou vous laisser plus de temps.
            </Trans>
          ) : (
            <Trans>
              Le code ne peut plus servir. Appelez l’agence ou écrivez-lui sur WhatsApp avec votre
              référence : elle peut confirmer votre réservation ou vous laisser plus de temps.
            </Trans>
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          <a
            className="inline-flex min-h-11 items-center rounded-md border border-border px-3 text-sm font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            href={`tel:${line.phone}`}
            data-testid="agency-call"
          >
            <Trans>Appeler l’agence</Trans>&nbsp;<bdi dir="ltr">{formatPhone(line.phone)}</bdi>
          </a>
          <a
            className="inline-flex min-h-11 items-center rounded-md border border-border px-3 text-sm font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            href={whatsappUrl(line.phone, message)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="agency-whatsapp"
          >
            <Trans>Écrire sur WhatsApp</Trans>
          </a>
        </div>
      </div>
    </Notice>
  );
}

/**
 * Confirms a guest's e-mail address with the mailed code: typed here, or from the mail's link
 * (`/guest-booking?ref=…&code=…`, confirmed as soon as the page opens). With the booking's id
 * (it was made on this device), a new code can be asked for.
 */
export function ConfirmContact({
  reference,
  bookingId,
  initialCode = '',
  confirmOnOpen = false,
  codeMailSent,
  account,
}: {
  /** The guest booking made on this device: offers to open an account with its address too. */
  account?: LocalBooking;
  reference: string;
  bookingId?: string;
  initialCode?: string;
  confirmOnOpen?: boolean;
  /** false when the server could not mail the latest code (create_booking's `code_mail_sent`). */
  codeMailSent?: boolean | null;
}) {
  const { t } = useLingui();
  const id = useId();
  const online = useOnline();
  const [code, setCode] = useState(initialCode);
  const [errors, setErrors] = useState<{ reference?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ConfirmResult | null>(null);
  const [resent, setResent] = useState<ResendResult | null>(null);
  const [withAccount, setWithAccount] = useState(false);
  const opened = useRef(false);

  async function confirm(ref: string, typed: string) {
    const next: typeof errors = {};
    const normalized = normalizeReference(ref);
    if (!normalized) next.reference = t`La référence ressemble à KR-7K3M-9QXD.`;
    if (!CODE_RE.test(cleanCode(typed))) next.code = t`Le code reçu par e-mail a 8 chiffres.`;
    setErrors(next);
    if (next.reference || next.code || !normalized) return;
    setBusy(true);
    try {
      setResult(await confirmGuestBooking(normalized, cleanCode(typed)));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!confirmOnOpen || opened.current) return;
    opened.current = true;
    void confirm(reference, initialCode);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the link's values
  }, []);

  async function resend() {
    if (!bookingId) return;
    setBusy(true);
    try {
      setResent(await resendGuestConfirmation(bookingId));
    } finally {
      setBusy(false);
    }
  }

  const done = result?.kind === 'confirmed';
  const notSent =
    resent?.kind === 'refused'
      ? resent.reason === 'mail_rate_limited'
      : resent?.kind !== 'sent' && codeMailSent === false;
  const stuck =
    (resent?.kind === 'refused' && resent.reason === 'resend_limited' && !resent.retryAt) ||
    (result?.kind === 'refused' && result.reason === 'confirmation_attempts_exceeded');
  return (
    <div className="flex flex-col gap-3" data-testid="confirm-contact">
      {!done && account?.guest_email && (
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-5 accent-primary"
            checked={withAccount}
            onChange={(e) => setWithAccount(e.target.checked)}
          />
          <Trans>Ouvrir aussi mon compte Kiraa avec cette adresse</Trans>
        </label>
      )}
      {!done && withAccount && account && (
        <Suspense fallback={<Spinner />}>
          <JoinAccount booking={account} />
        </Suspense>
      )}
      {!done && !withAccount && (
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm(reference, code);
          }}
        >
          <Field
            id={`${id}-code`}
            label={t`Code de confirmation`}
            error={errors.code ?? errors.reference}
            hint={t`Les 8 chiffres de l’e-mail reçu après la réservation.`}
          >
            <input
              id={`${id}-code`}
              dir="ltr"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
              className={inputClassName}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              {...describedBy(`${id}-code`, errors.code, true)}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" loading={busy} disabled={!online}>
              <Trans>Confirmer mon e-mail</Trans>
            </Button>
            {bookingId && (
              <Button
                type="button"
                size="sm"
                variant="secondary"
                disabled={busy || !online}
                onClick={() => void resend()}
              >
                <Trans>Recevoir un nouveau code</Trans>
              </Button>
            )}
          </div>
          {!online && (
            <p className="text-xs text-fg-muted">
              <Trans>Hors ligne : la confirmation se fera une fois connecté.</Trans>
            </p>
          )}
        </form>
      )}
      <div aria-live="polite" className="flex flex-col gap-2">
        <ConfirmAnswer result={result} />
        {!done && <ResendAnswer result={resent} />}
        {!done && (notSent || stuck) && (
          <AgencyHelp reference={reference} reason={notSent ? 'not_sent' : 'stuck'} />
        )}
      </div>
    </div>
  );
}
