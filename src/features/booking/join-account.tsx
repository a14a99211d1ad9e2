import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { LIMITS } from '@/domain/limits';
import type { LocalBooking } from '@/domain/local-booking';
import { normalizePhone } from '@/domain/phone';
import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';

import {
  joinGuestBookings,
  requestAccountCode,
  signInWithAccountCode,
  type JoinAnswer,
} from '@/features/booking/join-account-api';
import { describedBy, Field, inputClassName, Notice } from '@/features/booking/form-parts';
import { accountFieldsSchema } from '@/features/booking/join-account.schema';

/** config.toml's `otp_length`: the codes of auth mails. */
const CODE_LENGTH = 8;

type Step = 'profile' | 'code' | 'join';

/** What GoTrue's refusal means for the guest, in words (supabase-js's `status` and `code`). */
function useAuthFailure() {
  const { t } = useLingui();
  return (error: unknown): string => {
    const { status, code } = (error ?? {}) as { status?: number; code?: string };
    if (status === 429) return t`Trop de demandes pour cette adresse : réessayez dans une minute.`;
    if (code === 'otp_expired') return t`Code incorrect ou expiré.`;
    if (status === 422)
      return t`Vérifiez votre âge (${ph({ min: LIMITS.ageMin })} à ${ph({ max: LIMITS.ageMax })} ans) et votre adresse.`;
    if (!status) return t`Ouvrir un compte a besoin du réseau. Réessayez une fois connecté.`;
    return t`Le compte n’a pas pu être ouvert. Réessayez.`;
  };
}

/**
 * "Also open my Kiraa account with this address" on a guest booking's confirmation step (docs/
 * decisions.md, "Guest bookings join an account"): GoTrue mails a code to the booking's address,
 * the guest types it and is signed in, and the device's guest bookings of that address join the
 * account (`claim_guest_bookings`); this booking is confirmed on the way.
 */
export function JoinAccount({ booking }: { booking: LocalBooking }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const online = useOnline();
  const navigate = useNavigate();
  const authFailure = useAuthFailure();
  const email = booking.guest_email ?? '';
  const [step, setStep] = useState<Step>('profile');
  const [age, setAge] = useState('');
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ age?: string; address?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [refused, setRefused] = useState<JoinAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  async function askCode(event: FormEvent) {
    event.preventDefault();
    const parsed = accountFieldsSchema.safeParse({ age, address });
    if (!parsed.success) {
      const wrong = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      setErrors({
        age: wrong.has('age')
          ? t`Indiquez votre âge : de ${ph({ min: LIMITS.ageMin })} à ${ph({ max: LIMITS.ageMax })} ans.`
          : undefined,
        address: wrong.has('address')
          ? t`Indiquez votre adresse (${ph({ max: LIMITS.address })} caractères au plus).`
          : undefined,
      });
      return;
    }
    setErrors({});
    setFailure(null);
    setBusy(true);
    const result = await requestAccountCode(email, {
      name: (booking.guest_name ?? '').trim(),
      phone: normalizePhone(booking.guest_phone ?? '') ?? booking.guest_phone ?? '',
      age: parsed.data.age,
      address: parsed.data.address,
      locale: i18n.locale || 'fr',
    });
    setBusy(false);
    if (result.ok) setStep('code');
    else setFailure(authFailure(result.error));
  }

  async function join() {
    setFailure(null);
    setBusy(true);
    const result = await joinGuestBookings(email, booking.id);
    setBusy(false);
    if (result.kind === 'error') {
      setFailure(
        t`Vous êtes connecté, mais vos réservations n’ont pas encore rejoint votre compte. Réessayez.`,
      );
      return;
    }
    const mine = result.answers.find((a) => a.id === booking.id);
    if (mine && !mine.joined) {
      setRefused(mine);
      return;
    }
    navigate('/mybookings');
  }

  async function typeCode(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setBusy(true);
    const result = await signInWithAccountCode(email, code);
    setBusy(false);
    if (!result.ok) {
      setCode('');
      setFailure(authFailure(result.error));
      return;
    }
    setStep('join');
    await join();
  }

  return (
    <div className="flex flex-col gap-3" data-testid="join-account">
      {step === 'profile' && (
        <form noValidate className="flex flex-col gap-3" onSubmit={(e) => void askCode(e)}>
          <p className="text-sm">
            <Trans>
              Votre compte utilisera <bdi dir="ltr">{email}</bdi>, le nom et le téléphone de la
              réservation. Kiraa vous envoie un code de connexion à cette adresse : il confirme
              aussi la réservation.
            </Trans>
          </p>
          <Field id={`${id}-age`} label={t`Âge`} error={errors.age}>
            <input
              id={`${id}-age`}
              inputMode="numeric"
              dir="ltr"
              maxLength={3}
              className={inputClassName}
              value={age}
              onChange={(e) => setAge(e.target.value)}
              {...describedBy(`${id}-age`, errors.age)}
            />
          </Field>
          <Field id={`${id}-address`} label={t`Adresse`} error={errors.address}>
            <input
              id={`${id}-address`}
              autoComplete="street-address"
              maxLength={200}
              className={inputClassName}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              {...describedBy(`${id}-address`, errors.address)}
            />
          </Field>
          <div>
            <Button type="submit" size="sm" loading={busy} disabled={!online}>
              <Trans>Recevoir le code du compte</Trans>
            </Button>
          </div>
        </form>
      )}
      {step === 'code' && (
        <form noValidate className="flex flex-col gap-3" onSubmit={(e) => void typeCode(e)}>
          <Notice tone="success" live>
            <Trans>
              Un e-mail « Kiraa » avec un code à {CODE_LENGTH} chiffres vient d’être envoyé à{' '}
              <bdi dir="ltr">{email}</bdi>. C’est un autre e-mail que celui de la réservation.
            </Trans>
          </Notice>
          <Field id={`${id}-code`} label={t`Code du compte reçu par e-mail`}>
            <input
              id={`${id}-code`}
              data-testid="join-account-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              dir="ltr"
              maxLength={CODE_LENGTH}
              className={inputClassName}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              size="sm"
              loading={busy}
              disabled={!online || code.length !== CODE_LENGTH}
            >
              <Trans>Ouvrir mon compte</Trans>
            </Button>
            <Button
              type="button"
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() => {
                setStep('profile');
                setCode('');
                setFailure(null);
              }}
            >
              <Trans>Recevoir un nouveau code</Trans>
            </Button>
          </div>
        </form>
      )}
      {step === 'join' && failure && (
        <div>
          <Button size="sm" loading={busy} disabled={!online} onClick={() => void join()}>
            <Trans>Rattacher mes réservations</Trans>
          </Button>
        </div>
      )}
      <div aria-live="polite" className="flex flex-col gap-2">
        {failure && (
          <Notice tone="warning" live>
            <span data-testid="join-account-failure">{failure}</span>
          </Notice>
        )}
        {refused && (
          <Notice tone="danger" live>
            <p data-testid="join-account-refused" data-reason={refused.reason}>
              {i18n._(bookingErrorMessage(refused.reason ?? ''))}
            </p>
            <Link className="text-sm underline" to="/mybookings">
              <Trans>Voir mes réservations</Trans>
            </Link>
          </Notice>
        )}
      </div>
    </div>
  );
}
